import type { Db } from '#db/client';
import { addCardDays, CARD_CLAIM_MAX_LENGTH, CARD_TOKEN_TTL_DAYS, type CardClaims, cardDate, verifyCardToken } from '#shared/card-token';
import { messages } from '#shared/messages/index';
import { type Relationship, relationships } from '#shared/schemas/family';
import {
  CARD_FIELD_NAMES,
  type CardKeyResponse,
  type CardVerifyResponse,
  EMPTY_CARD_DETAILS,
  type EmployerCardDetails,
  type EmployerCardResponse,
  type IdCard,
  type IdCardsResponse,
} from '#shared/schemas/cards';
import { AppError } from '../../lib/app-error';
import type { Clock } from '../../lib/clock';
import type { CounterStore } from '../../lib/counter-store';
import { enforceLimit, IP_WINDOW_MS, perIpKey } from '../../lib/rate-limit';
import { isUuid } from '../../lib/sql-text';
import { recordEvent } from '../audit/audit.repository';
import { listFamilyOfUser } from '../members/members.repository';
import * as repo from './cards.repository';
import type { CardSigner } from './signing-key';

const m = messages.cards.server;

export interface CardsDeps {
  db: Db;
  clock: Clock;
  counters: CounterStore;
  signer: CardSigner;
  /** POST /api/cards/verify calls per IP a minute. */
  verifyPerMinute: number;
}

/** Who is calling: the session user, never an id from the request. */
export interface CardsCaller {
  id: string;
}

export interface CardsAdmin {
  id: string;
  companyId: string;
}

const clip = (s: string) => (s.length > CARD_CLAIM_MAX_LENGTH ? s.slice(0, CARD_CLAIM_MAX_LENGTH) : s);
const orEmpty = (details: repo.CardDetailsRow | null): EmployerCardDetails => details ?? EMPTY_CARD_DETAILS;
const asRelationship = (value: string): Relationship | null => (relationships as readonly string[]).includes(value) ? (value as Relationship) : null;

/** ID cards: the member's cards with signed payloads, their check, and the employer's card details. */
export function createCardsService(deps: CardsDeps) {
  const { db, clock, signer } = deps;

  function employerCardResponse(row: repo.EmployerCardRow): EmployerCardResponse {
    return { companyId: row.companyId, details: orEmpty(row.details), updatedAt: row.updatedAt ? row.updatedAt.toISOString() : null };
  }

  return {
    /** The key cards are signed with, as `/.well-known/wellhaven-card-key` serves it. */
    publicKey(): CardKeyResponse {
      return signer.publicKey;
    },

    /**
     * The member's card and one per family member, each with a token signed now: valid from
     * today (UTC) through CARD_TOKEN_TTL_DAYS days on.
     */
    async memberCards(caller: CardsCaller): Promise<IdCardsResponse> {
      const holder = await repo.findCardHolder(db, caller.id);
      if (!holder) throw new AppError('not_found', m.memberNotFound);
      const dependants = await listFamilyOfUser(db, caller.id);
      const details = orEmpty(holder.details);
      const issuedAt = cardDate(clock());
      const expiresAt = addCardDays(issuedAt, CARD_TOKEN_TTL_DAYS);
      const subscriberName = `${holder.firstName} ${holder.lastName}`;
      const base: Omit<CardClaims, 'n'> = {
        e: clip(holder.company),
        m: clip(holder.lhmpId),
        ...(details.planName ? { p: clip(details.planName) } : {}),
        ...(details.groupNumber ? { g: clip(details.groupNumber) } : {}),
        iat: issuedAt,
        exp: expiresAt,
      };
      const card = (fields: Pick<IdCard, 'id' | 'kind' | 'name' | 'relationship' | 'dateOfBirth'>): IdCard => ({
        ...fields,
        subscriberName,
        employer: holder.company,
        lhmpId: holder.lhmpId,
        issuedAt,
        expiresAt,
        token: signer.sign({ n: clip(fields.name), ...base, ...(fields.relationship ? { r: fields.relationship } : {}) }),
      });
      return {
        details,
        cards: [
          card({ id: 'member', kind: 'member', name: subscriberName, relationship: null, dateOfBirth: null }),
          ...dependants.map((d) =>
            card({ id: d.id, kind: 'dependant', name: `${d.firstName} ${d.lastName}`, relationship: asRelationship(d.relationship), dateOfBirth: d.dob }),
          ),
        ],
      };
    },

    /** Checks a card's payload for someone without WebCrypto; limited per IP like the other public calls. */
    async verify(token: string, ip: string): Promise<CardVerifyResponse> {
      await enforceLimit(deps.counters, perIpKey('card-verify', ip), deps.verifyPerMinute, IP_WINDOW_MS, m.verifyRateLimited);
      const result = await verifyCardToken(token, signer.publicKey.publicKey, clock());
      if (!result.ok) return { valid: false, reason: result.reason };
      const c = result.claims;
      return {
        valid: true,
        name: c.n,
        employer: c.e,
        lhmpId: c.m,
        planName: c.p ?? null,
        groupNumber: c.g ?? null,
        relationship: c.r ?? null,
        issuedAt: c.iat,
        expiresAt: c.exp,
      };
    },

    async employerCard(companyId: string): Promise<EmployerCardResponse> {
      const row = isUuid(companyId) ? await repo.findEmployerCard(db, companyId) : undefined;
      if (!row) throw new AppError('not_found', m.employerNotFound);
      return employerCardResponse(row);
    },

    /** Replaces an employer's card details; the audit row names the fields that changed. */
    async saveEmployerCard(actor: CardsAdmin, companyId: string, details: EmployerCardDetails): Promise<EmployerCardResponse> {
      if (!isUuid(companyId)) throw new AppError('not_found', m.employerNotFound);
      return db.transaction(async (tx) => {
        const before = await repo.findEmployerCard(tx, companyId, { lock: true });
        if (!before) throw new AppError('not_found', m.employerNotFound);
        const previous = orEmpty(before.details);
        const now = clock();
        const updatedAt = await repo.upsertEmployerCard(tx, companyId, details, actor.id, now);
        const changed = CARD_FIELD_NAMES.filter((name) => previous[name] !== details[name]);
        await recordEvent(tx, { type: 'admin.employer_card.updated', actorUserId: actor.id, companyId, payload: { changed }, at: now });
        return { companyId, details, updatedAt: updatedAt.toISOString() };
      });
    },
  };
}

export type CardsService = ReturnType<typeof createCardsService>;
