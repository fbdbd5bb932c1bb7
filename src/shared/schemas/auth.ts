import { z } from 'zod';
import { auth } from '../messages/auth';
import { hasNoInvisibleCharacters } from './text';

const v = auth.validation;

/** Programme ID: LQ followed by 5 digits; stored upper-case. */
export const LhmpIdSchema = z
  .string({ error: v.lhmpIdLength })
  .trim()
  .length(7, v.lhmpIdLength)
  .regex(/^LQ\d{5}$/i, v.lhmpIdFormat)
  .transform((s) => s.toUpperCase());

export const EmailSchema = z
  .string({ error: v.emailInvalid })
  .trim()
  .max(254, v.emailTooLong)
  .pipe(z.email(v.emailInvalid))
  .transform((s) => s.toLowerCase());

const requiredName = (required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(50, v.nameTooLong)
    .refine(hasNoInvisibleCharacters, v.invisibleCharacters);

export const PasswordSchema = z
  .string({ error: v.passwordMin })
  .min(8, v.passwordMin)
  .max(128, v.passwordMax);

export const RegisterRequestSchema = z.object({
  firstName: requiredName(v.firstNameRequired),
  lastName: requiredName(v.lastNameRequired),
  email: EmailSchema,
  company: z
    .string({ error: v.companyRequired })
    .trim()
    .min(1, v.companyRequired)
    .max(100, v.companyTooLong)
    .refine(hasNoInvisibleCharacters, v.invisibleCharacters),
  lhmpId: LhmpIdSchema,
  password: PasswordSchema,
});
export type RegisterRequest = z.input<typeof RegisterRequestSchema>;

export const SignInRequestSchema = z.object({
  email: EmailSchema,
  password: z.string({ error: v.passwordRequired }).min(1, v.passwordRequired).max(1024, v.passwordMax),
});
export type SignInRequest = z.input<typeof SignInRequestSchema>;

export const RoleSchema = z.enum(['member', 'admin']);
export type Role = z.infer<typeof RoleSchema>;

/** The session user the client keeps under `auth_user`. */
export const SessionUserSchema = z.object({
  id: z.uuid(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  lhmpId: z.string(),
  company: z.string(),
  role: RoleSchema,
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

export const SignInResponseSchema = z.object({
  user: SessionUserSchema,
  token: z.string(),
});
export type SignInResponse = z.infer<typeof SignInResponseSchema>;

export const RegisterResponseSchema = z.object({
  user: SessionUserSchema,
});
export type RegisterResponse = z.infer<typeof RegisterResponseSchema>;

export const MeResponseSchema = z.object({
  user: SessionUserSchema,
  session: z.object({
    expiresAt: z.iso.datetime(),
    idleExpiresAt: z.iso.datetime(),
    adminElevated: z.boolean(),
  }),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;

export const OkResponseSchema = z.object({ ok: z.literal(true) });

export const AdminAccessRequestSchema = z.object({
  email: z.string({ error: auth.adminAccess.missingBody }).trim().min(1, auth.adminAccess.missingBody).max(254).transform((s) => s.toLowerCase()),
  password: z.string({ error: auth.adminAccess.missingBody }).min(1, auth.adminAccess.missingBody).max(1024),
});
export type AdminAccessRequest = z.input<typeof AdminAccessRequestSchema>;

export const AdminAccessResponseSchema = z.object({ adminEmail: z.string() });
