import type { CacheChange } from '../../lib/notify';
import type { QuietHours } from './delivery';
import type { PopupRow } from './popups.repository';
import { compareBest, type Recurrence } from './schedule';

declare module 'fastify' {
  interface FastifyInstance {
    /** The popups that are on, held in memory (tests read what it holds: `holds`). */
    livePopups: LivePopups;
  }
}

export interface LivePopupsOptions {
  /** How long a load may be served without asking the database again (ms); 0 turns the cache off. */
  ttlMs: number;
}

/** What a popup's audience may ask of a member beyond their employer (users.enrolled_at, participants.family_member_count). */
export interface AudienceFacts {
  enrolled: boolean;
  withFamily: boolean;
}

/**
 * A popup as held, in the form delivery reads (its recurrence typed, its quiet hours one value
 * or null): one object serves many requests, so nothing may change it (its employer list and
 * quiet hours included).
 */
export type HeldPopup = Readonly<Omit<PopupRow, 'audienceCompanyIds' | 'recurrence'>> & {
  readonly audienceCompanyIds: readonly string[];
  readonly recurrence: Recurrence;
  readonly quietHours: Readonly<QuietHours> | null;
};

/** A popup row in its held form. */
export function toHeld(row: PopupRow): HeldPopup {
  const quietHours = row.quietHoursStart && row.quietHoursEnd ? Object.freeze({ start: row.quietHoursStart, end: row.quietHoursEnd }) : null;
  return Object.freeze({ ...row, recurrence: row.recurrence as Recurrence, audienceCompanyIds: Object.freeze([...row.audienceCompanyIds]), quietHours });
}

/**
 * Loaded rows as held: each in its held form, in delivery's order (compareBest), which a
 * member's call walks only until a popup passes. Sorted here, once per load, not by the
 * database: its order compares times to the microsecond, delivery's to the millisecond.
 */
const freeze = (rows: PopupRow[]): readonly HeldPopup[] => Object.freeze(rows.map(toHeld).sort(compareBest));

/**
 * The popups that are on (`is_active`) and not over when loaded, best first, held in this
 * process (docs/decisions/popup-audiences-capping.md, "The popups in memory"). Every member
 * asks for their next popup on every screen; the popups an administrator schedules change a
 * few times a day. So `GET /api/popups/next` and `/active` read the member's own rows only.
 *
 * Kept honest the way the session cache is (session-cache.ts): every change to a popup is
 * announced after it commits (`{ popups: true }`, lib/notify.ts) and drops what every
 * instance holds; the TTL bounds what a lost announcement could leave behind; while the
 * channel between instances is down, every call loads afresh; a load that read the database
 * before a change was announced is not kept (the generation has moved on). Concurrent
 * callers share one load. Times are the caller's (the app's injected clock).
 */
export class LivePopups {
  private held: { rows: readonly HeldPopup[]; loadedAt: number } | undefined;
  private loading: { rows: Promise<readonly HeldPopup[]>; at: number; generation: number } | undefined;
  private generation = 0;
  private live = true;

  constructor(
    private readonly load: (now: Date) => Promise<PopupRow[]>,
    private readonly options: LivePopupsOptions,
  ) {}

  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.live;
  }

  /** The popups on and not over at `now` or later, best first (frozen: one array serves many requests). */
  current(now: Date): Promise<readonly HeldPopup[]> {
    const at = now.getTime();
    if (!this.enabled) return this.load(now).then(freeze);
    const held = this.held;
    // A clock set back counts as stale too: popups that ended before the load would be missing.
    if (held && at >= held.loadedAt && at - held.loadedAt < this.options.ttlMs) return Promise.resolve(held.rows);
    const pending = this.loading;
    if (pending && pending.generation === this.generation && at >= pending.at) return pending.rows;
    const generation = this.generation;
    const rows = this.load(now).then((loaded) => {
      const frozen = freeze(loaded);
      if (this.enabled && generation === this.generation) this.held = { rows: frozen, loadedAt: at };
      return frozen;
    });
    const entry = { rows, at, generation };
    this.loading = entry;
    const done = () => {
      if (this.loading === entry) this.loading = undefined;
    };
    rows.then(done, done);
    return rows;
  }

  /** Whether a load is held with this popup in it (tests: has a change arrived yet?). */
  holds(popupId: string): boolean {
    return this.held?.rows.some((row) => row.id === popupId) ?? false;
  }

  /** Drops what is held when the popups changed, or anything did (a gap in the channel). */
  invalidate(change: CacheChange): void {
    if (!('popups' in change) && !('all' in change)) return;
    this.generation += 1;
    this.held = undefined;
    this.loading = undefined;
  }

  /** The channel between instances went down (bypass, forget) or came back (start afresh). */
  setLive(live: boolean): void {
    this.live = live;
    this.invalidate({ all: true });
  }
}

/** True when the popup's audience asks whether the member is enrolled or has family members. */
export const asksFacts = (row: HeldPopup): boolean => row.audienceEnrolledOnly || row.audienceWithFamilyOnly;

/** The enrolled / with-family parts of a popup's audience (the employer part is forEmployer's). */
export const matchesFacts = (row: HeldPopup, facts: AudienceFacts): boolean =>
  (!row.audienceEnrolledOnly || facts.enrolled) && (!row.audienceWithFamilyOnly || facts.withFamily);

/** The popups held for one employer's members and a target, and those of them that ask about enrolment or family. */
export interface ForEmployer {
  rows: readonly HeldPopup[];
  /** Those whose audience asks whether the member is enrolled or has family: while one is live, `forFacts` narrows. */
  askingFacts: readonly HeldPopup[];
}

/**
 * The popups among `rows` for `target` (null: every target) whose employer list holds
 * `companyId` (or is empty), in their order; those not live at the moment asked (scheduled,
 * or over since the load) included: the schedule's check, per popup, is delivery's.
 *
 * Kept per held array (frozen: it serves every member's calls until the popups change), so
 * an employer's members share one answer: with 1,000 popups held, matching every employer
 * list on every call was a fifth of a call's CPU (docs/performance-log.md, stop 43). At most
 * KEPT_MAX answers per array; an array not frozen is matched afresh.
 */
export function forEmployer(rows: readonly HeldPopup[], companyId: string, target: string | null): ForEmployer {
  // Stored lower case (the admin form lowers them; uuid columns read back lower case).
  const employer = companyId.toLowerCase();
  const match = (): ForEmployer => {
    const matched = rows.filter((row) => (target === null || row.target === target) && (row.audienceCompanyIds.length === 0 || row.audienceCompanyIds.includes(employer)));
    return Object.freeze({ rows: Object.freeze(matched), askingFacts: Object.freeze(matched.filter(asksFacts)) });
  };
  return kept(forEmployerKept, rows, target === null ? employer : `${employer} ${target}`, match);
}

/** The popups of a `forEmployer` answer whose enrolled / with-family parts hold the member (`matchesFacts`), in their order; kept likewise. */
export function forFacts(rows: readonly HeldPopup[], facts: AudienceFacts): readonly HeldPopup[] {
  return kept(forFactsKept, rows, `${facts.enrolled} ${facts.withFamily}`, () => Object.freeze(rows.filter((row) => matchesFacts(row, facts))));
}

const KEPT_MAX = 1_000;
const forEmployerKept = new WeakMap<readonly HeldPopup[], Map<string, ForEmployer>>();
const forFactsKept = new WeakMap<readonly HeldPopup[], Map<string, readonly HeldPopup[]>>();

/** `make()`, kept by `key` for the frozen array `rows` while it lives. */
function kept<T>(store: WeakMap<readonly HeldPopup[], Map<string, T>>, rows: readonly HeldPopup[], key: string, make: () => T): T {
  if (!Object.isFrozen(rows)) return make();
  let answers = store.get(rows);
  if (answers === undefined) {
    answers = new Map();
    store.set(rows, answers);
  }
  let answer = answers.get(key);
  if (answer === undefined) {
    if (answers.size >= KEPT_MAX) answers.clear();
    answer = make();
    answers.set(key, answer);
  }
  return answer;
}
