import { cardUi } from '../../lib/messages/card-ui';
import type { EmployerCardDetails, IdCard } from '#shared/schemas/cards';
import { LANGUAGE_LOCALES } from '#shared/i18n/languages';
import { language } from '../../lib/language';

const c = cardUi.card;

/** One printed line of a card: what the screen, the PNG and the PDF all show. */
export type CardField = {
  key: string;
  label: string;
  value: string;
  /** For phone numbers: the `tel:` link. */
  href?: string;
};

/** What one side of a card shows, in order; empty fields are left off. */
export type CardSides = {
  /** The holder's name, printed large. */
  name: string;
  front: CardField[];
  /** The Rx lines, printed together under the plan. */
  rx: CardField[];
  back: CardField[];
  /** The employer's note for the back, if any. */
  backNote: string | null;
  hipaa: string;
};

const present = (value: string | null | undefined): value is string => typeof value === 'string' && value.trim() !== '';

function field(key: string, label: string, value: string | null | undefined, href?: string): CardField[] {
  if (!present(value)) return [];
  return [href ? { key, label, value: value.trim(), href } : { key, label, value: value.trim() }];
}

/**
 * A printed phone number as a `tel:` URI (RFC 3966): its digits, with the leading + kept. Null
 * when it has too few digits to dial.
 */
export function telHref(phone: string): string | null {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 3) return null;
  return `tel:${phone.trim().startsWith('+') ? '+' : ''}${digits}`;
}

/** A calendar date (YYYY-MM-DD) as printed on a card, e.g. "Jun 1, 2015"; no time-zone shift. */
export function formatCardDate(iso: string, locale = LANGUAGE_LOCALES[language]): string {
  const date = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return iso;
  return date.toLocaleDateString(locale, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/**
 * Everything one card shows, front and back. A dependant's card adds their relationship,
 * date of birth and the subscriber's name; the plan fields are the member's employer's.
 */
export function cardSides(card: IdCard, details: EmployerCardDetails): CardSides {
  const dependant = card.kind === 'dependant';
  const phone = (key: string, label: string, value: string | null) =>
    present(value) ? field(key, label, value, telHref(value) ?? undefined) : [];
  return {
    name: card.name,
    front: [
      ...(dependant ? field('relationship', c.relationship, card.relationship && c.relationships[card.relationship]) : []),
      ...(dependant && present(card.dateOfBirth) ? field('dateOfBirth', c.dateOfBirth, formatCardDate(card.dateOfBirth)) : []),
      ...(dependant ? field('subscriber', c.subscriber, card.subscriberName) : []),
      ...field('lhmpId', c.lhmpId, card.lhmpId),
      ...field('employer', c.employer, card.employer),
      ...field('planName', c.planName, details.planName),
      ...field('groupNumber', c.groupNumber, details.groupNumber),
    ],
    rx: [...field('rxBin', c.rxBin, details.rxBin), ...field('rxPcn', c.rxPcn, details.rxPcn), ...field('rxGroup', c.rxGroup, details.rxGroup)],
    back: [
      ...phone('memberServicesPhone', c.memberServices, details.memberServicesPhone),
      ...phone('nurseLinePhone', c.nurseLine, details.nurseLinePhone),
      ...field('payerId', c.payerId, details.payerId),
    ],
    backNote: present(details.backNote) ? details.backNote.trim() : null,
    hipaa: c.hipaa,
  };
}
