import { z } from 'zod';
import { messages } from '../messages/index';
import { hasNoInvisibleCharacters } from './text';
import { RelationshipSchema } from './family';

/**
 * ID cards (issue 11). An employer's card details are written by admins and printed on every
 * card of its members and their family members; an empty field is left off the card.
 */

const v = messages.cards.validation;

/** Limits per card field: what fits on a wallet-size card and what the industry formats allow. */
export const CARD_FIELD_LIMITS = {
  planName: 60,
  groupNumber: 30,
  rxBin: 6,
  rxPcn: 20,
  rxGroup: 30,
  memberServicesPhone: 30,
  nurseLinePhone: 30,
  payerId: 20,
  backNote: 300,
} as const;
export type CardFieldName = keyof typeof CARD_FIELD_LIMITS;
export const CARD_FIELD_NAMES = Object.keys(CARD_FIELD_LIMITS) as CardFieldName[];

/** A text field that may be left empty: '' (and a missing field) is stored and answered as null. */
const optionalText = (max: number) =>
  z
    .string({ error: v.tooLong(max) })
    .trim()
    .max(max, v.tooLong(max))
    .refine(hasNoInvisibleCharacters, v.invisibleCharacters)
    .nullish()
    .transform((s) => (s === '' || s === undefined ? null : s));

const digitCount = (s: string) => s.match(/\d/g)?.length ?? 0;

/** A phone number as printed and dialled: digits, spaces, +, -, (, ), dots; 7 to 15 digits. */
export const isCardPhone = (s: string) => /^[+\d][\d\s().-]*$/.test(s) && digitCount(s) >= 7 && digitCount(s) <= 15;

const phone = optionalText(CARD_FIELD_LIMITS.memberServicesPhone).refine((s) => s === null || isCardPhone(s), v.phone);

/**
 * PUT /api/admin/employers/:companyId/card body and the admin form's resolver: every field
 * optional, '' or missing is null. Answers use `EmployerCardDetailsResponseSchema` (the same
 * fields, already clean: response schemas carry no transforms).
 */
export const EmployerCardDetailsSchema = z.object({
  planName: optionalText(CARD_FIELD_LIMITS.planName),
  groupNumber: optionalText(CARD_FIELD_LIMITS.groupNumber),
  /** Rx BIN: the pharmacy routing number, always 6 digits. */
  rxBin: optionalText(CARD_FIELD_LIMITS.rxBin).refine((s) => s === null || /^\d{6}$/.test(s), v.rxBin),
  rxPcn: optionalText(CARD_FIELD_LIMITS.rxPcn),
  rxGroup: optionalText(CARD_FIELD_LIMITS.rxGroup),
  memberServicesPhone: phone,
  nurseLinePhone: phone,
  payerId: optionalText(CARD_FIELD_LIMITS.payerId),
  backNote: optionalText(CARD_FIELD_LIMITS.backNote),
});
export type EmployerCardDetailsInput = z.input<typeof EmployerCardDetailsSchema>;
export type EmployerCardDetails = z.output<typeof EmployerCardDetailsSchema>;

/** The details part of every card answer: each field a string or null (left off the card). */
export const EmployerCardDetailsResponseSchema = z.object(
  Object.fromEntries(CARD_FIELD_NAMES.map((name) => [name, z.string().nullable()])) as Record<CardFieldName, z.ZodNullable<z.ZodString>>,
);

/** Every field empty: an employer nobody has written card details for yet. */
export const EMPTY_CARD_DETAILS: EmployerCardDetails = Object.fromEntries(CARD_FIELD_NAMES.map((name) => [name, null])) as EmployerCardDetails;

/** GET and PUT /api/admin/employers/:companyId/card. */
export const EmployerCardResponseSchema = z.object({
  companyId: z.uuid(),
  details: EmployerCardDetailsResponseSchema,
  /** When an admin last saved them; null when nobody has. */
  updatedAt: z.iso.datetime({ offset: true }).nullable(),
});
export type EmployerCardResponse = z.infer<typeof EmployerCardResponseSchema>;

/** One card: the member's own (`kind: 'member'`) or a family member's (`kind: 'dependant'`). */
export const IdCardSchema = z.object({
  /** Stable per card: `member` or the family member's id. */
  id: z.string(),
  kind: z.enum(['member', 'dependant']),
  name: z.string(),
  /** Only on dependant cards. */
  relationship: RelationshipSchema.nullable(),
  /** YYYY-MM-DD; only on dependant cards. */
  dateOfBirth: z.string().nullable(),
  /** The subscriber: the member whose plan this is (the member's own name on their card). */
  subscriberName: z.string(),
  employer: z.string(),
  lhmpId: z.string(),
  /** The signed payload's dates, YYYY-MM-DD (UTC): valid through `expiresAt`. */
  issuedAt: z.string(),
  expiresAt: z.string(),
  /** The signed payload the QR code holds (see `src/shared/card-token.ts`). */
  token: z.string(),
});
export type IdCard = z.infer<typeof IdCardSchema>;

/** GET /api/me/cards: every card of the signed-in member, with the employer's details. */
export const IdCardsResponseSchema = z.object({
  details: EmployerCardDetailsResponseSchema,
  cards: z.array(IdCardSchema),
});
export type IdCardsResponse = z.infer<typeof IdCardsResponseSchema>;

/** GET /.well-known/wellhaven-card-key: the key every card's signature is checked with. */
export const CardKeyResponseSchema = z.object({
  alg: z.literal('Ed25519'),
  /** base64url of the raw 32-byte public key: what `verifyCardToken` takes. */
  publicKey: z.string(),
  jwk: z.object({ kty: z.literal('OKP'), crv: z.literal('Ed25519'), x: z.string() }),
});
export type CardKeyResponse = z.infer<typeof CardKeyResponseSchema>;

/** POST /api/cards/verify: a card's QR payload, for checkers without WebCrypto. */
export const CardVerifyRequestSchema = z.object({ token: z.string().max(4000) });
export type CardVerifyRequest = z.infer<typeof CardVerifyRequestSchema>;

export const CardVerifyResponseSchema = z.discriminatedUnion('valid', [
  z.object({
    valid: z.literal(true),
    name: z.string(),
    employer: z.string(),
    lhmpId: z.string(),
    planName: z.string().nullable(),
    groupNumber: z.string().nullable(),
    relationship: z.string().nullable(),
    /** YYYY-MM-DD (UTC). */
    issuedAt: z.string(),
    expiresAt: z.string(),
  }),
  z.object({ valid: z.literal(false), reason: z.enum(['malformed', 'signature', 'expired']) }),
]);
export type CardVerifyResponse = z.infer<typeof CardVerifyResponseSchema>;
