import { type ReactElement, cloneElement } from 'react';
import { type FieldPath, type FieldValues, type RegisterOptions, type UseFormReturn, get, useFormState } from 'react-hook-form';
import { Field } from './ui/field';

interface FormFieldProps<T extends FieldValues> {
  form: UseFormReturn<T>;
  name: FieldPath<T>;
  label: string;
  hint?: string | undefined;
  /** While the form submits, for a form that locks its fields. */
  disabled?: boolean | undefined;
  /** react-hook-form's own (e.g. setValueAs); `onChange` runs after the error is cleared. */
  options?: RegisterOptions<T, FieldPath<T>> | undefined;
  /** The control (Input, PasswordInput, Textarea): it receives the registration and the Field wiring. */
  children: ReactElement<Record<string, unknown>>;
}

/**
 * One field of a react-hook-form form, the one way the forms wire a control: `Field` (label,
 * hint, the message under it, id and aria wiring) around the control, registered under `name`.
 * The message is the field's error (the shared schema's on the client, the server's through
 * lib/hook-form-errors), and it is cleared as the member edits the field.
 */
export function FormField<T extends FieldValues>({ form, name, label, hint, disabled, options, children }: FormFieldProps<T>) {
  const { errors } = useFormState({ control: form.control, name });
  const error = (get(errors, name) as { message?: string } | undefined)?.message;
  const registered = form.register(name, {
    ...options,
    onChange: (event: unknown) => {
      form.clearErrors(name);
      return options?.onChange?.(event);
    },
  });
  return (
    <Field label={label} hint={hint} error={error}>
      {cloneElement(children, { ...registered, ...(disabled === undefined ? {} : { disabled }) })}
    </Field>
  );
}
