import { createContext, useContext } from 'react';
import type { SessionUser, SignInRequest } from '#shared/schemas/auth';
import { common } from '#shared/messages/common';

export interface AuthContextValue {
  user: SessionUser | null;
  /**
   * Read from local storage before the first render, so the spec's "loading until stored
   * state is read" is over before anything renders: no loading flag.
   */
  token: string | null;
  isAuthenticated: boolean;
  signIn(input: SignInRequest): Promise<SessionUser>;
  signOut(): Promise<void>;
  /** The popup delivered at sign-in (raw JSON; the popups feature validates it), or null. */
  loginPopup: unknown;
  clearLoginPopup(): void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

/** The session; throws outside the provider (spec section 5). */
export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error(common.useAuthOutside);
  return value;
}
