import { HeldPerMember } from '../../lib/held-per-member';
import type { CacheChange } from '../../lib/notify';
import type { NewShow } from './delivery';
import type { AudienceFacts } from './live-popups';
import type { MemberPopupState } from './popups.repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** The members' popup states held in memory (tests read what it holds: `holds`). */
    memberPopupStates: MemberPopupStates;
    /** Enrolled members' audience facts held in memory (`audienceFactsOptions`; tests read `holds`). */
    audienceFacts: HeldFacts;
    /** Members' first shows held in memory (`memberShowsOptions`; tests read `holds`). */
    memberShows: HeldShows;
  }
}

export interface MemberPopupStatesOptions {
  /** How long a member's states may be served without asking the database again (ms); 0 turns the cache off. */
  ttlMs: number;
  /** Most members held; past it the least recently used go first. */
  max: number;
}

/** A member's stored states, by popup id, as held: one map serves many requests, so nothing may change it (typed read-only; each state frozen). */
export type HeldStates = ReadonlyMap<string, Readonly<MemberPopupState>>;

/** How the states are read: every one of the member's (held), or only those of some popups (the cache off or bypassed). */
export interface MemberStatesLoaders {
  all(userId: string): Promise<Map<string, MemberPopupState>>;
  of(userId: string, popupIds: readonly string[]): Promise<Map<string, MemberPopupState>>;
}

/**
 * Each member's stored states of the popups (user_popup_states: snoozes, completions, the
 * session a show was counted in), held in this process by member
 * (docs/decisions/popup-audiences-capping.md, "The member's states in memory too"). With the
 * popups that are on (live-popups.ts) and the session (session-cache.ts) held too, a member
 * asking again for their next popup costs no database statement until something of theirs
 * changes.
 *
 * An entry is every state the member has (a popup without one has none stored), so its size
 * is the member's own rows, whatever the number of live popups. Only the member's own calls
 * change their states (a show counted, a snooze, a completion), and each that changed a row is
 * announced after it commits (`{ popupStates: userId }`), which drops the member's entry on
 * every other instance; the instance that wrote keeps it with the row as written (`wrote`).
 * Any change to the popups (a deletion cascades to states) drops every entry.
 * The rest of the honesty (TTL, generation, the channel down) is lib/held-per-member.ts's.
 * The database stays the judge of every write: a show, snooze or completion re-checks the
 * stored row in its own statement.
 */
export class MemberPopupStates {
  private readonly held: HeldPerMember<{ states: HeldStates }>;

  constructor(
    private readonly load: MemberStatesLoaders,
    options: MemberPopupStatesOptions,
  ) {
    this.held = new HeldPerMember({ ...options, drops: (change) => ('popupStates' in change ? change.popupStates : 'popups' in change ? 'all' : undefined) });
  }

  get enabled(): boolean {
    return this.held.enabled;
  }

  /**
   * The member's states of the popups `wanted`, by popup id (a popup without a stored state is
   * absent): from memory while the member's entry is fresh, else all their states are read and
   * held. With the cache off or bypassed, only those of `wanted` are read.
   */
  async read(userId: string, wanted: readonly string[], now: Date): Promise<HeldStates> {
    if (!this.held.enabled) return this.load.of(userId, wanted);
    const entry = await this.held.getOrLoad(userId, now, async () => {
      const states = await this.load.all(userId);
      for (const state of states.values()) Object.freeze(state);
      return { states };
    });
    return entry.states;
  }

  /** Take before a write of the member's states; pass to `wrote`. */
  stamp(): number {
    return this.held.stamp();
  }

  /**
   * After the member's own write of their state of `popupId`, committed: `announce` it, and keep
   * their held states with `state` (as the write left it) in place of the popup's old one
   * (`HeldPerMember.keepThrough`: only when they were held before the write and nothing else of
   * theirs changed since `stamp`). Their next call then needs no query, where dropping them
   * would cost one.
   */
  wrote(userId: string, stamp: number, now: Date, popupId: string, state: MemberPopupState, announce: () => Promise<void>): Promise<void> {
    return this.held.keepThrough(userId, stamp, now, ({ states }) => ({ states: new Map(states).set(popupId, Object.freeze({ ...state })) }), announce);
  }

  /** Whether states are held for this member, fresh or not (tests: has a change arrived yet?). */
  holds(userId: string): boolean {
    return this.held.holds(userId);
  }

  invalidate(change: CacheChange): void {
    this.held.invalidate(change);
  }

  setLive(live: boolean): void {
    this.held.setLive(live);
  }
}

/**
 * Each member's audience facts (enrolled, with family: what a popup's audience may ask beyond
 * the employer), held by member with the popups' TTL, so that while a live popup asks about
 * them a member asking again reads nothing. Only an enrolled member's are held: no path of the
 * app removes a participant row (enrolment is never undone), so a held "enrolled" cannot go
 * stale, while a member not yet enrolled becomes so at their next sign-in, which announces
 * nothing: theirs are read each time. "With family" changes only by the member's own family
 * writes, each announced (`{ family: userId }`), which drops their entry on every instance.
 * Anything else that changes these rows (a hand-made deletion, a bulk load) must announce
 * `{ userId }` for the member, or `{ popups: true }` for many (every entry dropped).
 */
export function audienceFactsOptions(config: { POPUPS_CACHE_TTL_MS: number; SESSION_CACHE_MAX: number }) {
  return { ttlMs: config.POPUPS_CACHE_TTL_MS, max: config.SESSION_CACHE_MAX, drops: (change: CacheChange) => ('family' in change ? change.family : 'popups' in change ? ('all' as const) : undefined) };
}

/** The facts the audience facts cache holds (`audienceFactsOptions`). */
export type HeldFacts = HeldPerMember<AudienceFacts>;

/**
 * Each member's first shows of the popups since a time (what the daily cap counts), held by
 * member with the popups' TTL, so that a member at their cap asking again reads nothing. A
 * first show is written only with the member's state of the popup (`recordShow`: one
 * statement writes both), and every such write is announced after it commits
 * (`{ popupStates: userId }`), which drops the member's entry on every instance, this one
 * included: the next read is afresh. Events written behind the app's back must be announced
 * likewise, or as `{ popups: true }` for many members (every entry dropped). What is held
 * only chooses which popup is tried: a show that a cap allowed is re-checked against the
 * database, under the member's lock, before it is written.
 */
export function memberShowsOptions(config: { POPUPS_CACHE_TTL_MS: number; SESSION_CACHE_MAX: number }) {
  return { ttlMs: config.POPUPS_CACHE_TTL_MS, max: config.SESSION_CACHE_MAX, drops: (change: CacheChange) => ('popupStates' in change ? change.popupStates : 'popups' in change ? ('all' as const) : undefined) };
}

/** A member's first shows since `since` (ms), as read. */
export interface ShowsSince {
  since: number;
  shows: readonly NewShow[];
}

/** The shows the member shows cache holds (`memberShowsOptions`). */
export type HeldShows = HeldPerMember<ShowsSince>;
