import { randomBytes } from 'node:crypto';
import type { Db } from '#db/client';
import { companies, familyMembers, participants, popups, users } from '#db/schema';
import { hashPassword } from '../modules/auth/passwords';
import { issueLink } from '../modules/auth/links';
import type { Mailer } from '../modules/mail/mailer';

export const DEMO_PASSWORD = 'Sunny-meadow-2026';
export const DEMO_MEMBER_EMAIL = 'maria.lopez@acme-health.example';
export const DEMO_ADMIN_EMAIL = 'admin@wellhaven.example';

const DAY = 24 * 60 * 60 * 1000;

/**
 * How the demo administrator gets in: a one-time password for a person at a terminal, a
 * set-password link when mail can go out, or neither (`accessWithheldFor`: the operator gives
 * the account a password with ADMIN_EMAIL and ADMIN_PASSWORD).
 */
export type DemoAdminAccess = { adminPassword: string } | { setPasswordLinkTo: string } | { accessWithheldFor: string };

/**
 * Which DemoAdminAccess start-up asks seedDemoData for. A password only for a person at a
 * terminal (anywhere else stdout is kept with the logs); else a set-password link, but only
 * when SMTP_URL can deliver it: without it the link would only sit in the outbox (console
 * mode shows links only on a terminal and never sends them later), reaching no one.
 */
export function demoAdminAccessMode(input: { terminal: boolean; smtp: boolean }): 'password' | 'link' | 'withheld' {
  if (input.terminal) return 'password';
  return input.smtp ? 'link' : 'withheld';
}

/**
 * Fills an empty database with a small believable programme; does nothing otherwise.
 * The demo members share a published password; the demo administrator gets a random one, so
 * no deployment ships an admin with a known password. By default that password is returned (to
 * be shown once on an interactive terminal). With `mailer` it is never returned and a
 * set-password link is queued in the outbox instead, in the same transaction, so no password
 * ever reaches a log. With `withholdAdminPassword` (no terminal, no SMTP) neither: nobody
 * learns the password, and the operator sets one with ADMIN_EMAIL and ADMIN_PASSWORD.
 */
export async function seedDemoData(
  db: Db,
  options: { now?: Date; mailer?: Mailer | undefined; withholdAdminPassword?: boolean } = {},
): Promise<DemoAdminAccess | null> {
  const now = options.now ?? new Date();
  const [existing] = await db.select({ id: users.id }).from(users).limit(1);
  if (existing) return null;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  const adminPassword = `Admin-${randomBytes(12).toString('base64url')}`;
  const adminPasswordHash = await hashPassword(adminPassword);
  await db.transaction(async (tx) => {
    const [acme, globex, initech, admins] = await tx
      .insert(companies)
      // The administrators' employer takes no self-registration (roster mode, empty roster).
      .values([{ name: 'Acme Health Co' }, { name: 'Globex Manufacturing' }, { name: 'Initech Services' }, { name: 'Program Administration', enrolmentMode: 'roster' }])
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
          // Our own address: the demo vouches for it, as the operator does for ADMIN_EMAIL.
          emailVerifiedAt: now,
          createdAt: now,
        },
      ])
      .returning({ id: users.id, email: users.email, firstName: users.firstName });
    const admin = inserted.find((u) => u.email === DEMO_ADMIN_EMAIL)!;
    if (options.mailer) await issueLink(tx, options.mailer, admin, 'set_password', now);
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
  if (options.mailer) return { setPasswordLinkTo: DEMO_ADMIN_EMAIL };
  return options.withholdAdminPassword ? { accessWithheldFor: DEMO_ADMIN_EMAIL } : { adminPassword };
}

/**
 * What start-up prints about the demo sign-ins. The admin's one-time password only when it was
 * generated for a terminal (see seedDemoData); the members' published password only for the
 * embedded demo (`npm start`), never into a deployment's logs.
 */
export function demoSignInLines(input: { seeded: DemoAdminAccess | null; embedded: boolean; smtp: boolean }): string[] {
  const { seeded } = input;
  const lines = [seeded ? 'Demo data loaded. Demo sign-ins:' : 'Demo data present. Demo sign-ins:'];
  lines.push(input.embedded ? `  member: ${DEMO_MEMBER_EMAIL} / ${DEMO_PASSWORD}` : `  member: ${DEMO_MEMBER_EMAIL} (the demo members' password is in src/server/seed/demo-data.ts)`);
  if (seeded && 'adminPassword' in seeded) {
    lines.push(`  admin:  ${DEMO_ADMIN_EMAIL} / ${seeded.adminPassword} (shown once; then Admin Access in the menu with the same credentials)`);
  } else if (seeded && 'setPasswordLinkTo' in seeded) {
    lines.push(
      input.smtp
        ? `  admin:  a set-password link was sent to ${seeded.setPasswordLinkTo}`
        : `  admin:  a set-password link for ${seeded.setPasswordLinkTo} was queued but cannot be sent: SMTP_URL is not set`,
    );
  } else if (seeded) {
    // Nothing reaches anyone: say so, and say what works.
    lines.push(
      `  admin:  ${seeded.accessWithheldFor} has a random password nobody was shown (this output is not a terminal, and without SMTP_URL no set-password link can be mailed).`,
      `          To sign in as an administrator, set ADMIN_EMAIL and ADMIN_PASSWORD and restart (ADMIN_EMAIL=${seeded.accessWithheldFor} gives this account that password), or set SMTP_URL and use "Forgot password?".`,
    );
  } else {
    lines.push(`  admin:  ${DEMO_ADMIN_EMAIL} (its password was set when the demo data was created; ADMIN_EMAIL and ADMIN_PASSWORD reset it)`);
  }
  return [...lines, ''];
}
