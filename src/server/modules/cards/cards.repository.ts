import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { companies, employerCards, users } from '#db/schema';
import type { CardFieldName, EmployerCardDetails } from '#shared/schemas/cards';
import { prepared } from '../../lib/prepared';

const detailColumns = {
  planName: employerCards.planName,
  groupNumber: employerCards.groupNumber,
  rxBin: employerCards.rxBin,
  rxPcn: employerCards.rxPcn,
  rxGroup: employerCards.rxGroup,
  memberServicesPhone: employerCards.memberServicesPhone,
  nurseLinePhone: employerCards.nurseLinePhone,
  payerId: employerCards.payerId,
  backNote: employerCards.backNote,
} satisfies Record<CardFieldName, unknown>;

export type CardDetailsRow = Record<CardFieldName, string | null>;

export interface CardHolderRow {
  firstName: string;
  lastName: string;
  lhmpId: string;
  company: string;
  /** Null when nobody has written the employer's card details. */
  details: CardDetailsRow | null;
}

const holder = (db: DbOrTx) =>
  prepared(db, 'cards_holder', (d) =>
    d
      .select({ firstName: users.firstName, lastName: users.lastName, lhmpId: users.lhmpId, company: companies.name, details: detailColumns })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .leftJoin(employerCards, eq(employerCards.companyId, users.companyId))
      .where(eq(users.id, sql.placeholder('userId')))
      .limit(1)
      .prepare('cards_holder'),
  );

/** The member, their employer's name and its card details, in one statement. */
export async function findCardHolder(db: DbOrTx, userId: string): Promise<CardHolderRow | undefined> {
  const [row] = await holder(db).execute({ userId });
  return row;
}

export interface EmployerCardRow {
  companyId: string;
  details: CardDetailsRow | null;
  updatedAt: Date | null;
}

/** An employer and its card details (fields null, `updatedAt` null when never written); undefined for no such employer. */
export async function findEmployerCard(db: DbOrTx, companyId: string, options: { lock?: boolean } = {}): Promise<EmployerCardRow | undefined> {
  const query = db
    .select({ companyId: companies.id, details: detailColumns, updatedAt: employerCards.updatedAt })
    .from(companies)
    .leftJoin(employerCards, eq(employerCards.companyId, companies.id))
    .where(eq(companies.id, companyId))
    .limit(1);
  // Locking the employer's row: two admins saving at once take turns, so each audit row's "changed"
  // is true. FOR NO KEY UPDATE, so the foreign-key checks of rows naming the employer (its events,
  // its new users) do not wait on a card save.
  const [row] = options.lock ? await query.for('no key update', { of: companies }) : await query;
  return row;
}

/** Writes an employer's card details, whole (a field left empty is null). */
export async function upsertEmployerCard(db: DbOrTx, companyId: string, details: EmployerCardDetails, updatedBy: string, now: Date): Promise<Date> {
  const values = { ...details, updatedAt: now, updatedBy };
  const [row] = await db
    .insert(employerCards)
    .values({ companyId, ...values })
    .onConflictDoUpdate({ target: employerCards.companyId, set: values })
    .returning({ updatedAt: employerCards.updatedAt });
  return row!.updatedAt;
}
