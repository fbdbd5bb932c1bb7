/** Spec section 3: the session lives in local storage under these keys. */
export const AUTH_TOKEN_KEY = 'auth_token';
export const AUTH_USER_KEY = 'auth_user';
export const ADMIN_ACCESS_KEY = 'admin_access';
export const ADMIN_EMAIL_KEY = 'admin_email';
/** The account state last read from GET /api/auth/me, so Home knows it at its first render. */
export const AUTH_ACCOUNT_KEY = 'auth_account';
