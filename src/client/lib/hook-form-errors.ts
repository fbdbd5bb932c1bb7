import { useCallback, useEffect, useRef } from 'react';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';
import { type FormError, formErrorOf } from './form-errors';

// The react-hook-form side of lib/form-errors, apart from it: the sign-in screen, in the first
// chunk every visit loads, uses only the rule.

/**
 * `formErrorOf` put on a react-hook-form form: the field messages set and the first field in
 * error focused, the form's message returned for its alert or toast. A form whose fields are
 * disabled while it submits passes `focus` from `useFocusAfterSubmit`: a disabled field cannot
 * take focus, and the focus would fall to the page.
 */
export function applyServerError<T extends FieldValues>(
  form: UseFormReturn<T>,
  err: unknown,
  names: readonly Path<T>[],
  fallback: string,
  focus: (name: Path<T>) => void = (name) => form.setFocus(name),
): FormError<Path<T>> {
  const result = formErrorOf(err, names, fallback);
  for (const name of names) {
    const message = result.fields[name];
    if (message) form.setError(name, { type: 'server', message });
  }
  if (result.firstField) focus(result.firstField);
  return result;
}

/**
 * For a form whose fields are disabled while it submits (`busy`): the returned function names
 * the field to focus, which takes focus once the fields are enabled again.
 */
export function useFocusAfterSubmit<T extends FieldValues>(form: UseFormReturn<T>, busy: boolean): (name: Path<T>) => void {
  const pending = useRef<Path<T> | null>(null);
  useEffect(() => {
    if (busy || !pending.current) return;
    form.setFocus(pending.current);
    pending.current = null;
  });
  return useCallback((name: Path<T>) => {
    pending.current = name;
  }, []);
}
