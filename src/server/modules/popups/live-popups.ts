import type { CacheChange } from '../../lib/notify';
import type { PopupRow } from './popups.repository';
import { isLive } from './schedule';

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

/** A popup as held: one object serves many requests, so nothing may change it (its employer list included). */
export type HeldPopup = Readonly<Omit<PopupRow, 'audienceCompanyIds'>> & { readonly audienceCompanyIds: readonly string[] };

const freeze = (rows: PopupRow[]): readonly HeldPopup[] =>
  Object.freeze(rows.map((row) => Object.freeze({ ...row, audienceCompanyIds: Object.freeze(row.audienceCompanyIds) })));

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

/**
 * The popups among `rows` that are live at `now`, for `target` (null: every target), whose
 * employer list holds `companyId` (or is empty). Order kept. The enrolled / with-family parts
 * of an audience need the member's facts: `needsFacts`, then `matchesFacts`.
 */
export function liveForEmployer(rows: readonly HeldPopup[], companyId: string, target: string | null, now: Date): HeldPopup[] {
  // Stored lower case (the admin form lowers them; uuid columns read back lower case).
  const employer = companyId.toLowerCase();
  return rows.filter(
    (row) => isLive(row, now) && (target === null || row.target === target) && (row.audienceCompanyIds.length === 0 || row.audienceCompanyIds.includes(employer)),
  );
}

/** True when some popup's audience asks whether the member is enrolled or has family members. */
export const needsFacts = (rows: readonly HeldPopup[]): boolean => rows.some((row) => row.audienceEnrolledOnly || row.audienceWithFamilyOnly);

/** The enrolled / with-family parts of a popup's audience (the employer part is liveForEmployer's). */
export const matchesFacts = (row: HeldPopup, facts: AudienceFacts): boolean =>
  (!row.audienceEnrolledOnly || facts.enrolled) && (!row.audienceWithFamilyOnly || facts.withFamily);
