/**
 * The sign-in screen's strings: a module of their own, so /login's first download carries these
 * and not the rest of the auth catalogue (registration, admin access, server sentences).
 */
export const signIn = {
  title: 'Sign In',
  subtitle: 'Welcome back. Sign in to reach your health and wealth services.',
  email: 'Email',
  password: 'Password',
  submit: 'Sign In',
  submitting: 'Signing In...',
  toRegister: "Don't have an account? Create one",
  /** The link to /forgot-password. Here, not in the account catalogue, which /login does not load. */
  forgotPassword: 'Forgot password?',
  failed: 'Sign-in failed',
  failedRetry: 'Sign-in failed. Please try again.',
} as const;
