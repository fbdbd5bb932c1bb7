import { createContext, useContext } from 'react';
import type { SessionUser, SignInRequest } from '#shared/schemas/auth';
import { common } from '../../lib/messages/common';

export interface AuthContextValue {
  user: SessionUser | null;
  /**
   * Read from local storage before the first render, so the spec's "loading until stored
   * state is read" is over before anything renders: no loading flag.
   */
  token: string | null;
  isAuthenticated: boolean;
  /** The password step: signed in, or (two-step sign-in) a challenge for the code. */
  signIn(input: SignInRequest): Promise<SignInResult>;
  /** The code step of two-step sign-in. */
  completeMfaSignIn(challenge: string, code: string): Promise<SessionUser>;
  /**
   * Adopts a new token for the same user (the admin step-up hands one out and ends the old one).
   * Throws when storage refuses it, and the device is then signed out (the old token is dead).
   */
  replaceToken(token: string): void;
  signOut(): Promise<void>;
  /** The popup delivered at sign-in (raw JSON; the popups feature validates it), or null. */
  loginPopup: unknown;
  clearLoginPopup(): void;
}

export type SignInResult = { status: 'signed_in'; user: SessionUser } | { status: 'mfa_required'; challenge: string };

export const AuthContext = createContext<AuthContextValue | null>(null);

/** The session; throws outside the provider (spec section 5). */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error(common.useAuthOutside);
  return value;
}
