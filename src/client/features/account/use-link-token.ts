import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';

/**
 * The `token` of an emailed link, read once; the address bar then drops it (replace, so the
 * token is not left in the history, nor shown over someone's shoulder).
 */
export function useLinkToken(): string | null {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const [token] = useState(() => params.get('token'));
  const inUrl = params.has('token');
  useEffect(() => {
    if (inUrl) void navigate(pathname, { replace: true });
  }, [inUrl, navigate, pathname]);
  return token;
}
