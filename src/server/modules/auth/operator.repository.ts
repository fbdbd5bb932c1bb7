import { eq } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { companies, users } from '#db/schema';

/** What the operator sees before granting the admin role. */
export async function findAccountForOperator(db: DbOrTx, email: string) {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      role: users.role,
      companyId: users.companyId,
      company: companies.name,
      createdAt: users.createdAt,
      emailVerifiedAt: users.emailVerifiedAt,
    })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.email, email))
    .limit(1);
  return row;
}
