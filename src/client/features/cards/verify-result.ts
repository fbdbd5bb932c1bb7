import type { CardTokenVerification } from '#shared/card-token';
import { cardUi } from '../../lib/messages/card-ui';
import { formatCardDate } from './card-fields';

const v = cardUi.verify;

/** What /verify-card says about a checked card: a headline, and the lines under it. */
export type VerifyOutcome = { valid: boolean; headline: string; lines: string[] };

/** The plain-words answer for a verification (or for no key to check with). */
export function describeVerification(result: CardTokenVerification | { ok: false; reason: 'noKey' }): VerifyOutcome {
  if (!result.ok) return { valid: false, headline: v.invalid, lines: [v.reasons[result.reason]] };
  const { claims } = result;
  const lines = [
    ...(claims.r ? [`${v.relationship}: ${claims.r}`] : []),
    `${v.lhmpId}: ${claims.m}`,
    ...(claims.p ? [`${v.plan}: ${claims.p}`] : []),
    ...(claims.g ? [`${v.group}: ${claims.g}`] : []),
    v.validDetails(formatCardDate(claims.exp)),
  ];
  return { valid: true, headline: v.valid(claims.n, claims.e, formatCardDate(claims.iat)), lines };
}

/** A payload as scanned or pasted: white space (line breaks from a paste) removed. */
export const normalisePayload = (text: string) => text.replace(/\s+/g, '');
