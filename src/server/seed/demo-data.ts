import { randomBytes } from 'node:crypto';
import type { Db } from '#db/client';
import { companies, familyMembers, participants, popups, users } from '#db/schema';
import { hashPassword } from '../modules/auth/passwords';

export const DEMO_PASSWORD = 'Wellhaven-demo-2026';
export const DEMO_MEMBER_EMAIL = 'maria.lopez@acme-health.example';
export const DEMO_ADMIN_EMAIL = 'admin@wellhaven.example';

const DAY = 24 * 60 * 60 * 1000;

/**
 * Fills an empty database with a small believable programme; does nothing otherwise.
 * The demo members share a published password; the demo administrator gets a random one,
 * returned here and printed once, so no deployment ships an admin with a known password.
 */
export async function seedDemoData(db: Db, now = new Date()): Promise<{ adminPassword: string } | null> {
  const [existing] = await db.select({ id: users.id }).from(users).limit(1);
  if (existing) return null;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const adminPassword = `Admin-${randomBytes(12).toString('base64url')}`;
  const adminPasswordHash = await hashPassword(adminPassword);
  await db.transaction(async (tx) => {
    const [acme, globex, initech, admins] = await tx
      .insert(companies)
      .values([{ name: 'Acme Health Co' }, { name: 'Globex Manufacturing' }, { name: 'Initech Services' }, { name: 'Program Administration' }])
      .returning();
    const people = [
      { firstName: 'Maria', lastName: 'Lopez', email: DEMO_MEMBER_EMAIL, companyId: acme!.id, lhmpId: 'LQ10001', enrolled: true },
      { firstName: 'James', lastName: 'Chen', email: 'james.chen@acme-health.example', companyId: acme!.id, lhmpId: 'LQ10002', enrolled: true },
      { firstName: 'Aisha', lastName: 'Okafor', email: 'aisha.okafor@acme-health.example', companyId: acme!.id, lhmpId: 'LQ10003', enrolled: false },
      { firstName: 'Tom', lastName: 'Becker', email: 'tom.becker@globex.example', companyId: globex!.id, lhmpId: 'LQ20001', enrolled: true },
      { firstName: 'Priya', lastName: 'Nair', email: 'priya.nair@globex.example', companyId: globex!.id, lhmpId: 'LQ20002', enrolled: false },
      { firstName: 'Sam', lastName: 'Rivera', email: 'sam.rivera@initech.example', companyId: initech!.id, lhmpId: 'LQ30001', enrolled: false },
    ];
    const inserted = await tx
      .insert(users)
      .values([
        ...people.map(({ enrolled: _enrolled, ...p }, i) => ({
          ...p,
          passwordHash,
          emailVerifiedAt: i % 2 === 0 ? new Date(now.getTime() - 30 * DAY) : null,
          createdAt: new Date(now.getTime() - (40 - i) * DAY),
        })),
        {
          firstName: 'Programme',
          lastName: 'Administrator',
          email: DEMO_ADMIN_EMAIL,
          companyId: admins!.id,
          lhmpId: 'LQ90001',
          passwordHash: adminPasswordHash,
          role: 'admin' as const,
        },
      ])
      .returning({ id: users.id, email: users.email });
    const enrolled = inserted.filter((u) => people.find((p) => p.email === u.email)?.enrolled);
    const parts = await tx
      .insert(participants)
      .values(enrolled.map((u, i) => ({ userId: u.id, enrolledAt: new Date(now.getTime() - 20 * DAY), lastLoginAt: new Date(now.getTime() - (i + 1) * DAY), familyMemberCount: i === 0 ? 2 : 0 })))
      .returning({ id: participants.id });
    await tx.insert(familyMembers).values([
      { participantId: parts[0]!.id, firstName: 'Diego', lastName: 'Lopez', dob: '1984-05-12', relationship: 'Spouse' },
      { participantId: parts[0]!.id, firstName: 'Lucia', lastName: 'Lopez', dob: '2015-09-03', relationship: 'Child' },
    ]);
    await tx.insert(popups).values({
      title: 'Time for your Vital Scan',
      message: 'A 30-second Vital Scan keeps your care team up to date. Take it now from your phone.',
      target: 'home',
      startAt: new Date(now.getTime() - DAY),
      endAt: new Date(now.getTime() + 60 * DAY),
      recurrence: 'WEEKLY',
      interval: 1,
      timezone: 'America/Los_Angeles',
      theme: 'purple',
      maxSnoozes: 2,
      priority: 5,
      isActive: true,
    });
  });
  return { adminPassword };
}
