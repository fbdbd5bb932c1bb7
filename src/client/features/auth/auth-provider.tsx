import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import type { SessionUser, SignInRequest } from '#shared/schemas/auth';
import { clearStoredSession, readStoredSession, storeSession, storedToken } from '../../lib/auth-storage';
import { fetchLoginPopup, fetchSessionUser, signInRequest, signOutRequest } from './api/auth-requests';
import { AuthContext, type AuthContextValue } from './auth-context';
import { startIdleTimer, startKeepAlive } from './idle-timer';

/** Holds the session (spec section 4): restore, sign-in, sign-out, idle time-out, login popup. */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // Local storage is read synchronously: the session is known at the first render.
  const [state, setState] = useState<{ token: string | null; user: SessionUser | null }>(() => {
    const stored = readStoredSession();
    return { token: stored?.token ?? null, user: stored?.user ?? null };
  });
  const [loginPopup, setLoginPopup] = useState<unknown>(null);

  useEffect(() => {
    const stored = readStoredSession();
    if (!stored) return;
    // Restore optimistically (a weak signal should not hold the first screen), then confirm
    // with the server: a revoked or expired token answers 401, which the api client handles.
    void fetchSessionUser()
      .then((user) => {
        if (!user || readStoredSession()?.token !== stored.token) return;
        storeSession(stored.token, user);
        setState((s) => (s.token === stored.token ? { ...s, user } : s));
      })
      .catch(() => undefined);
  }, []);

  const signOut = useCallback(async () => {
    // Revoke on the server too: the request takes the token before storage is cleared,
    // and the local session ends whatever the answer.
    const revoke = storedToken() ? signOutRequest().catch(() => undefined) : undefined;
    clearStoredSession();
    setState({ token: null, user: null });
    setLoginPopup(null);
    queryClient.clear();
    await revoke;
  }, [queryClient]);

  const signIn = useCallback(async (input: SignInRequest) => {
    const { token, user } = await signInRequest(input);
    storeSession(token, user);
    setState({ token, user });
    setLoginPopup(await fetchLoginPopup());
    return user;
  }, []);

  const isAuthenticated = state.token !== null;
  useEffect(() => {
    if (!isAuthenticated) return undefined;
    const stopIdleTimer = startIdleTimer(window, () => {
      console.info('Signed out after 15 minutes of inactivity');
      void signOut();
    });
    // Activity keeps the server's session alive too (a 401 on it ends the session, as any call does).
    const stopKeepAlive = startKeepAlive(window, () => void fetchSessionUser().catch(() => undefined));
    return () => {
      stopIdleTimer();
      stopKeepAlive();
    };
  }, [isAuthenticated, signOut]);

  const value = useMemo<AuthContextValue>(
    () => ({
      ...state,
      isAuthenticated,
      signIn,
      signOut,
      loginPopup,
      clearLoginPopup: () => setLoginPopup(null),
    }),
    [state, isAuthenticated, signIn, signOut, loginPopup],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
