import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { ApiError } from '../../lib/api-client';

/**
 * Puts a failed request's `{ fields }` on the form's own fields (the first one takes focus)
 * and returns anything else as the form's message: the server's sentence, else `fallback`.
 */
export function applyServerError<T extends FieldValues>(form: UseFormReturn<T>, err: unknown, names: readonly Path<T>[], fallback: string): string | null {
  if (err instanceof ApiError) {
    const known = names.filter((name) => err.fields?.[name]);
    known.forEach((name, i) => form.setError(name, { type: 'server', message: err.fields![name]! }, { shouldFocus: i === 0 }));
    if (known.length > 0) return null;
    return err.serverMessage ?? fallback;
  }
  return fallback;
}
