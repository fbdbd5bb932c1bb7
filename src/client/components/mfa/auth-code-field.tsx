import type { ChangeEvent, Ref } from 'react';
import { mfa } from '../../lib/messages/mfa';
import { Field } from '../ui/field';
import { Input } from '../ui/input';

const f = mfa.factor;

interface AuthCodeFieldProps {
  value: string;
  onChange(value: string): void;
  error?: string | undefined;
  hint?: string | undefined;
  /**
   * A recovery code is letters too: a text keyboard, no one-time-code autofill (the phone would
   * offer a code from a text message) and no digits-only pattern.
   */
  recovery?: boolean;
  disabled?: boolean;
  inputRef?: Ref<HTMLInputElement>;
}

/**
 * "Authentication code": six digits from the app (a numeric keypad, and the phone offers the
 * one-time code it received), or a recovery code (a text keyboard). The server tells the two
 * apart by their shape, so either works in either mode; the mode only picks the keyboard.
 */
export function AuthCodeField({ value, onChange, error, hint, recovery = false, disabled, inputRef }: AuthCodeFieldProps) {
  return (
    <Field label={f.code} hint={hint ?? (recovery ? f.recoveryHint : f.codeHint)} error={error}>
      <Input
        ref={inputRef}
        name="code"
        inputMode={recovery ? 'text' : 'numeric'}
        autoComplete={recovery ? 'off' : 'one-time-code'}
        {...(recovery ? {} : { pattern: '[0-9]*' })}
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        maxLength={64}
        value={value}
        disabled={disabled}
        onChange={(event: ChangeEvent<HTMLInputElement>) => onChange(event.target.value)}
      />
    </Field>
  );
}
