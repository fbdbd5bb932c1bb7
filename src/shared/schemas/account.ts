import { z } from 'zod';
import { account } from '../messages/account';
import { auth } from '../messages/auth';
import { EmailSchema, PasswordSchema } from './auth';
import { pathId } from './ids';

const v = account.validation;

/** A one-time token from an emailed link (256-bit base64url; a little room for the future). */
export const OneTimeTokenSchema = z
  .string({ error: v.tokenMissing })
  .trim()
  .min(1, v.tokenMissing)
  .max(200, v.tokenMissing)
  .regex(/^[A-Za-z0-9_-]+$/, v.tokenMissing);

export const VerifyEmailRequestSchema = z.object({ token: OneTimeTokenSchema });
export type VerifyEmailRequest = z.input<typeof VerifyEmailRequestSchema>;

export const VerifyEmailResponseSchema = z.object({ emailVerified: z.literal(true) });
export type VerifyEmailResponse = z.infer<typeof VerifyEmailResponseSchema>;

/** `already_verified`: nothing was sent, the address is verified (200 either way). */
export const ResendVerificationResponseSchema = z.object({ status: z.enum(['sent', 'already_verified']) });
export type ResendVerificationResponse = z.infer<typeof ResendVerificationResponseSchema>;

export const ForgotPasswordRequestSchema = z.object({ email: EmailSchema });
export type ForgotPasswordRequest = z.input<typeof ForgotPasswordRequestSchema>;

/** The same answer whether or not the account exists. */
export const ForgotPasswordResponseSchema = z.object({ message: z.string() });
export type ForgotPasswordResponse = z.infer<typeof ForgotPasswordResponseSchema>;

/** The new password under the same length rules as registration (the server adds the policy). */
const NewPasswordSchema = z.string({ error: v.newPasswordRequired }).min(1, v.newPasswordRequired).pipe(PasswordSchema);

export const ResetPasswordRequestSchema = z.object({ token: OneTimeTokenSchema, password: NewPasswordSchema });
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequestSchema>;

/** The reset form: the request's password, typed twice. The token comes from the link. */
export const ResetPasswordFormSchema = ResetPasswordRequestSchema.pick({ password: true })
  .extend({ confirmPassword: z.string().min(1, v.confirmRequired) })
  .refine((f) => f.password === f.confirmPassword, { message: v.confirmMismatch, path: ['confirmPassword'] });
export type ResetPasswordForm = z.input<typeof ResetPasswordFormSchema>;

export const ChangePasswordRequestSchema = z.object({
  currentPassword: z.string({ error: v.currentPasswordRequired }).min(1, v.currentPasswordRequired).max(1024, auth.validation.passwordMax),
  newPassword: NewPasswordSchema,
});
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequestSchema>;

/** The change form: the request, with the new password typed twice. */
export const ChangePasswordFormSchema = ChangePasswordRequestSchema.extend({ confirmPassword: z.string().min(1, v.confirmRequired) }).refine(
  (f) => f.newPassword === f.confirmPassword,
  { message: v.confirmMismatch, path: ['confirmPassword'] },
);
export type ChangePasswordForm = z.input<typeof ChangePasswordFormSchema>;

export const ChangePasswordResponseSchema = z.object({ otherSessionsRevoked: z.number().int().nonnegative() });
export type ChangePasswordResponse = z.infer<typeof ChangePasswordResponseSchema>;

export const ResetPasswordResponseSchema = z.object({ ok: z.literal(true) });

/** One live session of the caller. `device` is null when the browser was not recognised. */
export const AccountSessionSchema = z.object({
  id: z.uuid(),
  device: z.string().nullable(),
  createdAt: z.iso.datetime(),
  lastSeenAt: z.iso.datetime(),
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof AccountSessionSchema>;

export const AccountSessionListSchema = z.object({ sessions: z.array(AccountSessionSchema) });
export type AccountSessionList = z.infer<typeof AccountSessionListSchema>;

/** An id that is not a session of the caller is a 404, whatever its shape. */
export const AccountSessionParamsSchema = z.object({ sessionId: pathId(account.server.sessionNotFound) });

export const RevokeOtherSessionsResponseSchema = z.object({ revoked: z.number().int().nonnegative() });
export type RevokeOtherSessionsResponse = z.infer<typeof RevokeOtherSessionsResponseSchema>;
