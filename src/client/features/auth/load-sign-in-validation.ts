import type * as SignInValidation from './sign-in-validation';

type Validation = typeof SignInValidation;

let loading: Promise<Validation> | undefined;

/** The sign-in check and its zod schema, fetched once; a failed fetch is tried again next time. */
export function loadSignInValidation(): Promise<Validation> {
  loading ??= import('./sign-in-validation').catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

/** Fetches the sign-in check when the browser is idle after first paint; returns a cancel function. */
export function preloadSignInValidation(): () => void {
  const load = () => void loadSignInValidation().catch(() => undefined);
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(load, { timeout: 2000 });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(load, 200);
  return () => window.clearTimeout(id);
}
