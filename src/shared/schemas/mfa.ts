import { z } from 'zod';
import { mfa } from '../messages/mfa';

const v = mfa.validation;

/** A code as typed: six digits from the app, or a recovery code (`abcde-fghjk`). */
export const MfaCodeSchema = z.string({ error: v.codeRequired }).trim().min(1, v.codeRequired).max(64, v.codeTooLong);

/** The sign-in challenge handed out between the password and the code (256-bit base64url). */
export const MfaChallengeSchema = z
  .string({ error: v.challengeMissing })
  .trim()
  .min(1, v.challengeMissing)
  .max(200, v.challengeMissing)
  .regex(/^[A-Za-z0-9_-]+$/, v.challengeMissing);

const CurrentPasswordSchema = z.string({ error: v.passwordRequired }).min(1, v.passwordRequired).max(1024, v.passwordRequired);

/** A secret offered for set-up, with the URI a QR code carries. */
export const MfaSetupOfferSchema = z.object({
  secret: z.string(),
  otpauthUrl: z.string(),
});

export const RecoveryCodesSchema = z.array(z.string());

/** GET /api/me/mfa */
export const MfaStatusResponseSchema = z.object({
  enabled: z.boolean(),
  enabledAt: z.iso.datetime().nullable(),
  recoveryCodesLeft: z.number().int().nonnegative(),
  /** Administrators keep their factor: the step-up needs it. */
  canDisable: z.boolean(),
});
export type MfaStatusResponse = z.infer<typeof MfaStatusResponseSchema>;

/** POST /api/me/mfa/setup: the password again, so a stolen session cannot lock the owner out. */
export const MfaSetupRequestSchema = z.object({ password: CurrentPasswordSchema });
export type MfaSetupRequest = z.input<typeof MfaSetupRequestSchema>;
export const MfaSetupResponseSchema = MfaSetupOfferSchema;
export type MfaSetupResponse = z.infer<typeof MfaSetupResponseSchema>;

/** POST /api/me/mfa/confirm: the first code from the app turns the factor on. */
export const MfaConfirmRequestSchema = z.object({ code: MfaCodeSchema });
export type MfaConfirmRequest = z.input<typeof MfaConfirmRequestSchema>;
export const MfaConfirmResponseSchema = z.object({ recoveryCodes: RecoveryCodesSchema });
export type MfaConfirmResponse = z.infer<typeof MfaConfirmResponseSchema>;

/** POST /api/me/mfa/disable */
export const MfaDisableRequestSchema = z.object({ password: CurrentPasswordSchema, code: MfaCodeSchema });
export type MfaDisableRequest = z.input<typeof MfaDisableRequestSchema>;
export const MfaDisableResponseSchema = z.object({ enabled: z.literal(false) });
export type MfaDisableResponse = z.infer<typeof MfaDisableResponseSchema>;
