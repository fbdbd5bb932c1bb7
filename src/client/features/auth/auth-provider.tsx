import { useQueryClient } from '@tanstack/react-query';
import { type ComponentProps, type ComponentType, type ReactNode, Suspense, lazy, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SessionUser, SignInRequest, SignInSession } from '#shared/schemas/auth';
import { common } from '../../lib/messages/common';
import { meQueryOptions } from '../../lib/me-query';
import { saveLanguageOnAccount } from './api/save-preferences';
import { clearStoredSession, readStoredSession, replaceStoredToken, storeSession, storedToken } from '../../lib/auth-storage';
import { markDeviceClearPending, runPendingDeviceClear } from '../../lib/device-clear';
import { clearAllDrafts } from '../../lib/form-draft-storage';
import { whenIdle } from '../../lib/when-idle';
import { fetchLoginPopup } from './api/get-login-popup';
import { fetchSessionUser } from './api/get-session-user';
import { signInMfaRequest, signInRequest } from './api/sign-in';
import { signOutRequest } from './api/sign-out';
import { AuthContext, type AuthContextValue, type SignInResult } from './auth-context';
import { clearIdleSignOut, markIdleSignOut } from './idle-notice';
import type { IdleWarningDialog as IdleWarningDialogType } from './components/idle-warning-dialog';
import type { IdleWatch } from './idle-timer';

/** Marks the warning's content, whose own clicks are its buttons' business (idle-warning-dialog.tsx). */
const IDLE_WARNING_ATTRIBUTE = 'data-idle-warning';
/** How long a sign-in waits for a clearing the last session left owed. */
const OWED_CLEAR_WAIT_MS = 2000;
// The warning's code comes after the first screen, fetched at the first idle moment of a session
// so it is here (offline too) when the 14th minute comes. Should it still be missing then (the
// device went offline before it arrived, with no service worker to answer), no warning shows and
// the idle sign-out happens as it would have: the app is not replaced by an error screen.
const loadIdleWarning = () => import('./components/idle-warning-dialog');
const IdleWarningDialog = lazy<ComponentType<ComponentProps<typeof IdleWarningDialogType>>>(() =>
  loadIdleWarning().then(
    (m) => ({ default: m.IdleWarningDialog }),
    () => ({ default: () => null }),
  ),
);

/**
 * Holds the session (spec section 4): restore, sign-in, sign-out, idle time-out with a warning
 * a minute before (WCAG 2.2.1), login popup.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  // Local storage is read synchronously: the session is known at the first render.
  const [state, setState] = useState<{ token: string | null; user: SessionUser | null }>(() => {
    const stored = readStoredSession();
    return { token: stored?.token ?? null, user: stored?.user ?? null };
  });
  const [loginPopup, setLoginPopup] = useState<unknown>(null);
  /** When the idle sign-out will come, while the warning shows. */
  const [idleDeadline, setIdleDeadline] = useState<number | null>(null);
  const idleWatch = useRef<IdleWatch | null>(null);
  useEffect(() => {
    const stored = readStoredSession();
    // A session that ended here without its clearing finishing (the tab closed, its code not
    // downloaded, a 401 that reloaded the app): the device is cleared now, while nobody is
    // signed in (with a session stored, the clearing waits for its sign-out).
    if (!stored) {
      void runPendingDeviceClear().catch(() => undefined);
      return;
    }
    // Restore optimistically (a weak signal should not hold the first screen), then confirm
    // with the server: a revoked or expired token answers 401, which the api client handles.
    // Through the query cache: Home's account state (the verify banner) reads the same answer.
    void queryClient
      .fetchQuery(meQueryOptions())
      .then(({ user }) => {
        if (!user || readStoredSession()?.token !== stored.token) return;
        storeSession(stored.token, user);
        // The same user as stored (the usual answer) changes nothing: no render of every screen
        // that reads the session.
        setState((s) => (s.token === stored.token && JSON.stringify(s.user) !== JSON.stringify(user) ? { ...s, user } : s));
      })
      .catch(() => undefined);
  }, [queryClient]);

  /**
   * Ends the session here and on the server, and removes member answers and cards from the
   * device (lib/device-data.ts; the cards stay only with "Keep my cards on this device"). The
   * clearing is marked as owed first (lib/device-clear.ts), so one that cannot finish now
   * runs at the next start. An idle sign-out keeps the tab's form drafts for after the
   * member signs back in; a sign-out the member chose removes them too.
   */
  const endSession = useCallback(
    async (reason: 'member' | 'idle') => {
      // Revoke on the server too: the request takes the token before storage is cleared,
      // and the local session ends whatever the answer.
      const revoke = storedToken() ? signOutRequest().catch(() => undefined) : undefined;
      const owed = markDeviceClearPending();
      if (reason === 'idle') markIdleSignOut();
      else clearAllDrafts();
      clearStoredSession();
      setState({ token: null, user: null });
      setLoginPopup(null);
      setIdleDeadline(null);
      queryClient.clear();
      await Promise.all([revoke, runPendingDeviceClear(owed).catch(() => undefined)]);
    },
    [queryClient],
  );
  const signOut = useCallback(() => endSession('member'), [endSession]);

  const startSession = useCallback(async ({ token, user }: SignInSession) => {
    // What the last session left owed goes before this one's answers are kept, waited for a
    // short while only: a clearing that cannot finish (its code not downloaded, a database
    // another tab holds open) keeps its mark and does not hold the sign-in up.
    await Promise.race([runPendingDeviceClear().catch(() => undefined), new Promise((resolve) => setTimeout(resolve, OWED_CLEAR_WAIT_MS))]);
    clearIdleSignOut();
    storeSession(token, user);
    setState({ token, user });
    void import('../../lib/save-language').then((m) => m.adoptAccountLanguage(user.language, saveLanguageOnAccount));
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
        const owed = markDeviceClearPending();
        clearStoredSession();
        void runPendingDeviceClear(owed).catch(() => undefined);
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
    // The warning's code, and what sign-out runs to clear the device, load during the session,
    // not when they are needed (the device may be offline then; the service worker's precache
    // holds them too): at its first idle moment, each in a task of its own, rather than in the
    // task that commits the first screen. Neither they nor the idle watch are part of /login's
    // first download.
    const cancelLoads = [
      whenIdle(() => void loadIdleWarning().catch(() => undefined)),
      whenIdle(() => void import('../../lib/device-data').catch(() => undefined)),
    ];
    let stop: (() => void) | undefined;
    let cancelled = false;
    // The silence counts from now, not from whenever the watch's code arrives.
    const since = Date.now();
    void import('./idle-timer').then(({ startIdleWatch, startKeepAlive, watchSignOutElsewhere }) => {
      if (cancelled) return;
      const watch = startIdleWatch(window, {
        onWarn: (deadline) => setIdleDeadline(deadline),
        // A click or key elsewhere while the warning shows: the member is here, as "Stay signed in".
        onPresent: () => {
          setIdleDeadline(null);
          void fetchSessionUser().catch(() => undefined);
        },
        inWarning: (node) => node instanceof Node && Boolean(document.querySelector(`[${IDLE_WARNING_ATTRIBUTE}]`)?.contains(node)),
        onIdle: () => {
          console.info('Signed out after 15 minutes of inactivity');
          void endSession('idle');
        },
      }, { since });
      idleWatch.current = watch;
      // Activity keeps the server's session alive too (a 401 on it ends the session, as any call does).
      const stopKeepAlive = startKeepAlive(window, () => void fetchSessionUser().catch(() => undefined));
      // Signed out in another tab (Sign Out, the idle time-out, a 401 there): this tab ends its
      // session too, so nothing here writes the member's answers back to the device.
      const stopElsewhere = watchSignOutElsewhere(window, () => void endSession('member'));
      stop = () => {
        watch.stop();
        stopKeepAlive();
        stopElsewhere();
      };
    });
    return () => {
      cancelled = true;
      for (const cancel of cancelLoads) cancel();
      stop?.();
      idleWatch.current = null;
      setIdleDeadline(null);
    };
  }, [isAuthenticated, endSession]);

  /** "Stay signed in": a full 15 minutes again here, and the server's sliding window moved by a request. */
  const staySignedIn = useCallback(() => {
    idleWatch.current?.extend();
    setIdleDeadline(null);
    void fetchSessionUser().catch(() => undefined);
  }, []);

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
  return (
    <AuthContext.Provider value={value}>
      {children}
      {idleDeadline !== null && (
        <Suspense fallback={null}>
          <IdleWarningDialog deadline={idleDeadline} onStay={staySignedIn} onSignOut={() => void signOut()} />
        </Suspense>
      )}
    </AuthContext.Provider>
  );
}
