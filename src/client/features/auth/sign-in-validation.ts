import { fieldErrors } from '#shared/errors';
import { auth } from '#shared/messages/auth';
import { type SignInRequest, SignInRequestSchema } from '#shared/schemas/auth';
import { registerEnglish } from '../../lib/language';

// The schema's messages are English; the sign-in screen shows them through localize().
registerEnglish({ auth });

export type SignInFields = Partial<Record<keyof SignInRequest, string>>;
export type SignInCheck = { ok: true; data: SignInRequest } | { ok: false; fields: SignInFields };

/**
 * The sign-in form's check: the shared `SignInRequestSchema` the server uses, first message
 * per field. Loaded on demand (see load-sign-in-validation.ts) so that zod is not part of the
 * sign-in screen's first download.
 */
export function validateSignIn(values: SignInRequest): SignInCheck {
  const parsed = SignInRequestSchema.safeParse(values);
  return parsed.success ? { ok: true, data: parsed.data } : { ok: false, fields: fieldErrors(parsed.error.issues) };
}
