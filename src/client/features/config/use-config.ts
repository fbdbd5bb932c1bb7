import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { PublicConfig } from '#shared/schemas/config';
import { apiGet } from '../../lib/api-client';
import { CONFIG_KEY } from '../../lib/query-scopes';


const fallback: PublicConfig = {
  brandName: 'Wellhaven',
  brandLogoUrl: '/logo.svg',
  brandPrimaryColor: '#0f766e',
  vitalScanUrl: '',
  wellnessProgramUrl: '',
  helpVideoIds: [],
};

/** Runtime configuration (brand, external links); rebranding needs a restart, not a rebuild. */
export function useConfig(): PublicConfig & { isLoading: boolean } {
  const query = useQuery({
    queryKey: CONFIG_KEY,
    queryFn: () => apiGet<PublicConfig>('/api/config', { on401: 'returnNull' }),
  });
  return { ...(query.data ?? fallback), isLoading: query.isLoading };
}

/** Applies the brand colour and name to the document once the configuration arrives. */
export function useApplyBrand() {
  const { brandPrimaryColor, brandName, isLoading } = useConfig();
  useEffect(() => {
    if (isLoading) return;
    document.documentElement.style.setProperty('--brand', brandPrimaryColor);
    document.title = brandName;
    document.querySelector('meta[name="theme-color"]')?.setAttribute('content', brandPrimaryColor);
  }, [brandPrimaryColor, brandName, isLoading]);
}
