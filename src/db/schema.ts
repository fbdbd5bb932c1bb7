import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const id = () => uuid('id').primaryKey().defaultRandom();
const serialId = () => bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity();

export const companies = pgTable(
  'companies',
  {
    id: id(),
    name: text('name').notNull().unique(),
    /**
     * The name as registration compares it: lower case, punctuation and repeated spaces
     * folded, the suffixes Co/Company/Inc/LLC/Ltd/Corp dropped. Computed by the database
     * (SQL function employer_name_key, migration 0006), so every writer and reader agrees.
     */
    nameKey: text('name_key')
      .generatedAlwaysAs(sql`employer_name_key(name)`)
      .unique(),
    /** `open`: registration finds or creates the employer; `roster`: only listed people may register. */
    enrolmentMode: text('enrolment_mode', { enum: ['open', 'roster'] }).notNull().default('open'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('companies_name_normalized_key').on(sql`lower(trim(${t.name}))`),
    check('companies_enrolment_mode_check', sql`${t.enrolmentMode} in ('open', 'roster')`),
  ],
);

export const users = pgTable(
  'users',
  {
    id: id(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull().unique(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'restrict' }),
    lhmpId: varchar('lhmp_id', { length: 7 }).notNull().unique(),
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['member', 'admin'] }).notNull().default('member'),
    /** Base32 TOTP secret once the second factor is confirmed; null without one. */
    mfaSecret: text('mfa_secret'),
    /** A secret offered for set-up and not yet confirmed by a code. */
    mfaPendingSecret: text('mfa_pending_secret'),
    mfaEnabledAt: timestamp('mfa_enabled_at', { withTimezone: true }),
    /** The last TOTP time step accepted: a code of that step or earlier is refused (single use). */
    mfaLastStep: bigint('mfa_last_step', { mode: 'number' }),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    /** The language the member chose (switcher); null: never chose, so the browser's decides. */
    language: text('language', { enum: ['en', 'es'] }),
    /**
     * Copy of participants.enrolled_at kept by a trigger (migration 0002) so the admin
     * employee list filters and pages on one index. Never write it from the application.
     */
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  // The admin list indexes (users_company_list_idx with INCLUDE in migration 0012, which replaced
  // 0002's users_company_sort_idx,
  // users_company_text_search_idx in 0004: GIN btree_gin + pg_trgm, users_company_search_grams_idx
  // in 0011: GIN btree_gin + an expression of characters and pairs): drizzle cannot express them.
  (t) => [
    check('users_role_check', sql`${t.role} in ('member', 'admin')`),
    // Popup audience sizes count members as employees minus the few admins: found without a scan.
    index('users_admins_idx').on(t.companyId).where(sql`${t.role} = 'admin'`),
  ],
);

export const participants = pgTable(
  'participants',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .unique()
      .references(() => users.id, { onDelete: 'cascade' }),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }).notNull().defaultNow(),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    familyMemberCount: integer('family_member_count').notNull().default(0),
  },
  (t) => [
    check('participants_family_count_check', sql`${t.familyMemberCount} >= 0`),
    // Popup audiences "only members with family members": the few with family, found without a scan.
    index('participants_with_family_idx').on(t.userId).where(sql`${t.familyMemberCount} > 0`),
  ],
);

/**
 * Per-employer aggregates for the admin lists, maintained exactly by statement-level triggers
 * on companies, users and participants (migration 0002). Read-only for the application.
 */
export const companyStats = pgTable('company_stats', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  employees: integer('employees').notNull().default(0),
  verifiedEmployees: integer('verified_employees').notNull().default(0),
  participants: integer('participants').notNull().default(0),
  familyMembers: integer('family_members').notNull().default(0),
  lastActivityAt: timestamp('last_activity_at', { withTimezone: true }),
});

export const familyMembers = pgTable(
  'family_members',
  {
    id: id(),
    participantId: uuid('participant_id')
      .notNull()
      .references(() => participants.id, { onDelete: 'cascade' }),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    dob: date('dob', { mode: 'string' }).notNull(),
    relationship: text('relationship').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('family_members_participant_id_idx').on(t.participantId, t.createdAt)],
);

export const loginAudits = pgTable(
  'login_audits',
  {
    id: serialId(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    result: text('result', {
      enum: ['success', 'bad_password', 'unknown_email', 'locked', 'rate_limited', 'bad_mfa_code', 'mfa_required'],
    }).notNull(),
    timestamp: timestamp('timestamp', { withTimezone: true }).notNull().defaultNow(),
    ipMasked: text('ip_masked').notNull(),
    userAgentHash: text('user_agent_hash').notNull(),
    /**
     * Refused attempts (rate limited, locked) are kept as one row per key and window, not one
     * per attempt: the key names the caller (IP or account), the window and the result, and
     * `attempts` counts what was refused under it, the last at `lastAttemptAt`.
     */
    dedupKey: text('dedup_key').unique(),
    attempts: integer('attempts').notNull().default(1),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
  },
  (t) => [
    index('login_audits_user_id_idx').on(t.userId, t.timestamp),
    index('login_audits_timestamp_idx').on(t.timestamp),
  ],
);

export const events = pgTable(
  'events',
  {
    id: serialId(),
    actorUserId: uuid('actor_user_id').references(() => users.id, { onDelete: 'set null' }),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'set null' }),
    type: text('type').notNull(),
    payloadJson: jsonb('payload_json').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: createdAt(),
  },
  (t) => [
    index('events_type_created_at_idx').on(t.type, t.createdAt),
    index('events_actor_idx').on(t.actorUserId, t.createdAt),
    index('events_popup_id_type_idx').on(sql`(${t.payloadJson}->>'popupId')`, t.type),
  ],
);

export const counters = pgTable(
  'counters',
  {
    id: serialId(),
    date: date('date', { mode: 'string' }).notNull(),
    companyId: uuid('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: integer('value').notNull().default(0),
  },
  (t) => [uniqueIndex('counters_date_company_key_key').on(t.date, t.companyId, t.key)],
);

export const popups = pgTable(
  'popups',
  {
    id: id(),
    title: text('title').notNull(),
    message: text('message').notNull(),
    target: text('target').notNull().default('home'),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    recurrence: text('recurrence').notNull().default('NONE'),
    interval: integer('interval').notNull().default(1),
    timezone: text('timezone').notNull().default('America/Los_Angeles'),
    theme: text('theme').notNull().default('green'),
    maxSnoozes: integer('max_snoozes').notNull().default(2),
    priority: integer('priority').notNull().default(1),
    isActive: boolean('is_active').notNull().default(true),
    /** The button's text and where it goes (an app path or an allow-listed https URL; null = the vital-scan URL). */
    actionLabel: text('action_label').notNull().default('Take Vital Scan'),
    actionTarget: text('action_target'),
    /** Who sees it: these employers (empty = all), and optionally only enrolled members or those with family. */
    audienceCompanyIds: uuid('audience_company_ids').array().notNull().default(sql`'{}'::uuid[]`),
    audienceEnrolledOnly: boolean('audience_enrolled_only').notNull().default(false),
    audienceWithFamilyOnly: boolean('audience_with_family_only').notNull().default(false),
    /** At most this many different popups per member per day; null = the programme's setting. */
    dailyCap: integer('daily_cap'),
    /** No popup between these local times ("HH:MM") in the member's zone; null = the programme's setting. */
    quietHoursStart: text('quiet_hours_start'),
    quietHoursEnd: text('quiet_hours_end'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // The popups that are on, in "best" order, as each instance loads them (modules/popups/live-popups.ts).
    index('popups_on_idx')
      .on(t.priority.desc().nullsFirst(), t.endAt, t.createdAt, t.id)
      .where(sql`${t.isActive}`),
  ],
);

export const userPopupStates = pgTable(
  'user_popup_states',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    popupId: uuid('popup_id')
      .notNull()
      .references(() => popups.id, { onDelete: 'cascade' }),
    /** Start of the occurrence this state belongs to; an older one counts as fresh. */
    occurrenceStart: timestamp('occurrence_start', { withTimezone: true }),
    snoozeCount: integer('snooze_count').notNull().default(0),
    lastSnoozedAt: timestamp('last_snoozed_at', { withTimezone: true }),
    lastShownAt: timestamp('last_shown_at', { withTimezone: true }),
    /** The session the current occurrence was last counted as shown in: one show per session and occurrence. */
    shownSessionId: uuid('shown_session_id'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('user_popup_states_user_popup_key').on(t.userId, t.popupId),
    index('user_popup_states_popup_idx').on(t.popupId),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the bearer token, hex; the token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    adminElevatedAt: timestamp('admin_elevated_at', { withTimezone: true }),
    /** Readable device summary ("Chrome on Android") parsed from the user agent at sign-in. */
    device: text('device'),
    /** The browser's IANA time zone reported at sign-in (popup quiet hours and daily caps); null when not given. */
    timeZone: text('time_zone'),
    /**
     * Opened with a signed token (modules/auth/session-tokens.ts). False for sessions opened
     * before tokens were signed, and by an instance still running that code: while one of those
     * can be live, unsigned tokens are looked up.
     */
    signed: boolean('signed').notNull().default(false),
  },
  (t) => [
    index('sessions_user_id_idx').on(t.userId),
    // Small once every instance signs: the check for a live unsigned session reads only these.
    index('sessions_unsigned_idx').on(t.expiresAt).where(sql`not ${t.signed} and ${t.revokedAt} is null`),
  ],
);

/**
 * Secrets the server makes once and every instance shares, by name. `session_tokens` signs the
 * bearer tokens sessions are opened with, so that a token this server never issued is refused
 * before any lookup (modules/auth/session-tokens.ts). A key here only spares that lookup: the
 * token itself stays its session's only proof, and only its SHA-256 is stored.
 */
export const serverKeys = pgTable('server_keys', {
  name: text('name').primaryKey(),
  /** Hex. */
  secret: text('secret').notNull(),
  createdAt: createdAt(),
});

/** Ten single-use recovery codes per second factor, stored as SHA-256 hashes. */
export const mfaRecoveryCodes = pgTable(
  'mfa_recovery_codes',
  {
    id: serialId(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('mfa_recovery_codes_user_code_key').on(t.userId, t.codeHash)],
);

/**
 * Single-use secrets sent to a person or held by a client between two steps: email
 * verification, password reset, the bootstrap administrator's set-password link, and the
 * sign-in challenge between password and second factor. Only the SHA-256 is stored.
 */
export const oneTimeTokens = pgTable(
  'one_time_tokens',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password', 'set_password', 'mfa_challenge'] }).notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('one_time_tokens_user_purpose_idx').on(t.userId, t.purpose),
    check('one_time_tokens_purpose_check', sql`${t.purpose} in ('verify_email', 'reset_password', 'set_password', 'mfa_challenge')`),
  ],
);

/**
 * Mail waiting to go out, written in the same transaction as the change that causes it and
 * sent by the outbox worker with retries. Bodies are cleared once sent (they hold links).
 */
export const outbox = pgTable(
  'outbox',
  {
    id: serialId(),
    toAddress: text('to_address').notNull(),
    template: text('template').notNull(),
    subject: text('subject').notNull(),
    textBody: text('text_body'),
    htmlBody: text('html_body'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_pending_idx').on(t.nextAttemptAt).where(sql`${t.sentAt} is null`)],
);

/** An employer's eligibility list: who may register while it is in `roster` mode. */
export const rosterEntries = pgTable(
  'roster_entries',
  {
    id: serialId(),
    companyId: uuid('company_id')
      .notNull()
      .references(() => companies.id, { onDelete: 'cascade' }),
    lhmpId: varchar('lhmp_id', { length: 7 }).notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    /** Names as the match compares them (nameMatchKey): case, accents and outer spaces folded. */
    firstNameKey: text('first_name_key').notNull(),
    lastNameKey: text('last_name_key').notNull(),
    email: text('email'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('roster_entries_company_lhmp_key').on(t.companyId, t.lhmpId)],
);

/**
 * What an employer's plan prints on its members' ID cards (issue 11). One row per employer,
 * written by admins; a missing row or an empty field means the card leaves that line off.
 */
export const employerCards = pgTable('employer_cards', {
  companyId: uuid('company_id')
    .primaryKey()
    .references(() => companies.id, { onDelete: 'cascade' }),
  planName: text('plan_name'),
  groupNumber: text('group_number'),
  rxBin: text('rx_bin'),
  rxPcn: text('rx_pcn'),
  rxGroup: text('rx_group'),
  memberServicesPhone: text('member_services_phone'),
  nurseLinePhone: text('nurse_line_phone'),
  payerId: text('payer_id'),
  backNote: text('back_note'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
});

/**
 * Replay store for `Idempotency-Key` on create calls: one row per user and key for 24 hours.
 * `statusCode` null means the first request is still running; a repeat then waits or gets 409.
 * `requestHash` ties the key to one method, route and body, so a reused key with another body
 * is refused rather than answered with someone else's result.
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: varchar('key', { length: 255 }).notNull(),
    requestHash: text('request_hash').notNull(),
    statusCode: integer('status_code'),
    responseBody: jsonb('response_body'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index('idempotency_keys_created_idx').on(t.createdAt)],
);
