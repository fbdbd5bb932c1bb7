import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import type { SessionUser, SignInRequest, SignInSession } from '#shared/schemas/auth';
import { common } from '#shared/messages/common';
import { meQueryOptions } from '../../lib/me-query';
import { clearStoredSession, readStoredSession, replaceStoredToken, storeSession, storedToken } from '../../lib/auth-storage';
import { fetchLoginPopup, fetchSessionUser, signInMfaRequest, signInRequest, signOutRequest } from './api/auth-requests';
import { AuthContext, type AuthContextValue, type SignInResult } from './auth-context';
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
    // Through the query cache: Home's account state (the verify banner) reads the same answer.
    void queryClient
      .fetchQuery(meQueryOptions())
      .then(({ user }) => {
        if (!user || readStoredSession()?.token !== stored.token) return;
        storeSession(stored.token, user);
        setState((s) => (s.token === stored.token ? { ...s, user } : s));
      })
      .catch(() => undefined);
  }, [queryClient]);

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

  const startSession = useCallback(async ({ token, user }: SignInSession) => {
    storeSession(token, user);
    setState({ token, user });
    // The account state comes with the popup, so Home's first render has both.
    const [popup] = await Promise.all([fetchLoginPopup(), queryClient.prefetchQuery(meQueryOptions())]);
    setLoginPopup(popup);
    return user;
  }, [queryClient]);

  const signIn = useCallback(
    async (input: SignInRequest): Promise<SignInResult> => {
      const answer = await signInRequest(input);
      if ('challenge' in answer) return { status: 'mfa_required', challenge: answer.challenge };
      return { status: 'signed_in', user: await startSession(answer) };
    },
    [startSession],
  );

  const completeMfaSignIn = useCallback(
    async (challenge: string, code: string) => startSession(await signInMfaRequest({ challenge, code })),
    [startSession],
  );

  const signedInUser = state.user;
  const replaceToken = useCallback(
    (token: string) => {
      try {
        const user = signedInUser ?? readStoredSession()?.user;
        if (!user) throw new Error(common.saveAuthFailed);
        replaceStoredToken(token, user);
      } catch (err) {
        // The old token is revoked and the new one cannot be kept: this device is signed out.
        clearStoredSession();
        setState({ token: null, user: null });
        queryClient.clear();
        throw err;
      }
      setState((s) => ({ ...s, token }));
    },
    [signedInUser, queryClient],
  );

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
      completeMfaSignIn,
      replaceToken,
      signOut,
      loginPopup,
      clearLoginPopup: () => setLoginPopup(null),
    }),
    [state, isAuthenticated, signIn, completeMfaSignIn, replaceToken, signOut, loginPopup],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
