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
