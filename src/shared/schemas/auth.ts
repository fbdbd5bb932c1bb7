import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages';
import { auth } from '../messages/auth';
import { MfaChallengeSchema, MfaCodeSchema, MfaSetupOfferSchema, RecoveryCodesSchema } from './mfa';
import { EmployerNameSchema } from './employer-name';
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

/** A person's first or last name (registration, roster rows): trimmed, 1-50 characters, nothing invisible. */
export const requiredName = (required: string) =>
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
  company: EmployerNameSchema,
  lhmpId: LhmpIdSchema,
  password: PasswordSchema,
});
export type RegisterRequest = z.input<typeof RegisterRequestSchema>;

/**
 * The browser's IANA time zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`), kept
 * with the session for popup quiet hours and daily caps. Optional, and never a reason to
 * refuse a sign-in: anything that is not a short string is dropped here, and a name that is
 * not a real zone by the server.
 */
const BrowserTimeZoneSchema = z.string().max(64).optional().catch(undefined);

export const SignInRequestSchema = z.object({
  email: EmailSchema,
  password: z.string({ error: v.passwordRequired }).min(1, v.passwordRequired).max(1024, v.passwordMax),
  timeZone: BrowserTimeZoneSchema,
});
export type SignInRequest = z.input<typeof SignInRequestSchema>;

export const LanguageSchema = z.enum(LANGUAGES);

/** PATCH /api/me/preferences: the member's choices that follow them from device to device. */
export const PreferencesSchema = z.object({ language: LanguageSchema }).strict();
export type Preferences = z.infer<typeof PreferencesSchema>;

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
  /** The member's saved language; null until they choose one. */
  language: LanguageSchema.nullable(),
});
export type SessionUser = z.infer<typeof SessionUserSchema>;

/** A signed-in session: the spec's sign-in answer, and the answer of the second step. */
export const SignInSessionSchema = z.object({
  user: SessionUserSchema,
  token: z.string(),
});
export type SignInSession = z.infer<typeof SignInSessionSchema>;

/** The password was right and the account has two-step sign-in: no session yet, a challenge for the code. */
export const SignInChallengeSchema = z.object({
  status: z.literal('mfa_required'),
  /** Single use, 5 minutes; goes back with the code to POST /api/auth/signin/mfa. */
  challenge: z.string(),
});
export type SignInChallenge = z.infer<typeof SignInChallengeSchema>;

/** POST /api/auth/signin: `{ user, token }` without a second factor, else the challenge. */
export const SignInResponseSchema = z.union([SignInSessionSchema, SignInChallengeSchema]);
export type SignInResponse = z.infer<typeof SignInResponseSchema>;

/** POST /api/auth/signin/mfa: the challenge and a code from the app (or a recovery code). */
export const SignInMfaRequestSchema = z.object({ challenge: MfaChallengeSchema, code: MfaCodeSchema, timeZone: BrowserTimeZoneSchema });
export type SignInMfaRequest = z.input<typeof SignInMfaRequestSchema>;

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
  /** Account state the client shows (the verify banner, Security); read in the same query as the session. */
  account: z.object({
    emailVerified: z.boolean(),
    mfaEnabled: z.boolean(),
  }),
});
export type MeResponse = z.infer<typeof MeResponseSchema>;

export const OkResponseSchema = z.object({ ok: z.literal(true) });

export const AdminAccessRequestSchema = z.object({
  email: z.string({ error: auth.adminAccess.missingBody }).trim().min(1, auth.adminAccess.missingBody).max(254).transform((s) => s.toLowerCase()),
  password: z.string({ error: auth.adminAccess.missingBody }).min(1, auth.adminAccess.missingBody).max(1024),
  /** The second factor: a code from the app or a recovery code. Without it the answer says what comes next. */
  code: MfaCodeSchema.optional(),
});
export type AdminAccessRequest = z.input<typeof AdminAccessRequestSchema>;

/**
 * POST /api/admin/access. Without a code: `mfa_setup` (no factor yet: a secret to scan) or
 * `mfa_required`. With the right code: `granted`, a NEW admin-elevated session token (the
 * asking session is revoked) and, on first set-up only, the ten recovery codes.
 */
export const AdminAccessResponseSchema = z.discriminatedUnion('status', [
  MfaSetupOfferSchema.extend({ status: z.literal('mfa_setup') }),
  z.object({ status: z.literal('mfa_required') }),
  z.object({ status: z.literal('granted'), token: z.string(), recoveryCodes: RecoveryCodesSchema.optional() }),
]);
export type AdminAccessResponse = z.infer<typeof AdminAccessResponseSchema>;
