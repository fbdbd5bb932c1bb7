import { HeldPerMember } from '../../lib/held-per-member';
import type { CacheChange } from '../../lib/notify';
import type { MemberPopupState } from './popups.repository';

declare module 'fastify' {
  interface FastifyInstance {
    /** The members' popup states held in memory (tests read what it holds: `holds`). */
    memberPopupStates: MemberPopupStates;
  }
}

export interface MemberPopupStatesOptions {
  /** How long a member's states may be served without asking the database again (ms); 0 turns the cache off. */
  ttlMs: number;
  /** Most members held; past it the least recently used go first. */
  max: number;
}

/** A member's stored states, by popup id, as held: one map serves many requests, so nothing may change it. */
export type HeldStates = ReadonlyMap<string, Readonly<MemberPopupState>>;

interface Entry {
  /** The popups whose states were read: a popup among them without a state has none stored. */
  covers: ReadonlySet<string>;
  states: HeldStates;
}

/**
 * Each member's stored states of the popups live for them (user_popup_states: snoozes,
 * completions, the session a show was counted in), held in this process by member
 * (docs/decisions/popup-audiences-capping.md, "The member's states in memory too"). With the
 * popups that are on (live-popups.ts) and the session (session-cache.ts) held too, a member
 * asking again for their next popup costs no database statement until something of theirs
 * changes.
 *
 * Only the member's own calls change their states (a show counted, a snooze, a completion),
 * and each is announced after it commits (`{ popupStates: userId }`), which drops the member's
 * entry on every instance; any change to the popups drops every entry. The rest of the
 * honesty (TTL, generation, the channel down) is lib/held-per-member.ts's. The database stays
 * the judge of every write: a show, snooze or completion re-checks the stored row in its own
 * statement.
 */
export class MemberPopupStates {
  private readonly held: HeldPerMember<Entry>;

  constructor(
    private readonly load: (userId: string, popupIds: readonly string[]) => Promise<Map<string, MemberPopupState>>,
    options: MemberPopupStatesOptions,
  ) {
    this.held = new HeldPerMember<Entry>({ ...options, drops: (change) => ('popupStates' in change ? change.popupStates : 'popups' in change ? 'all' : undefined) });
  }

  get enabled(): boolean {
    return this.held.enabled;
  }

  /**
   * The member's states of the popups `wanted`, by popup id (a popup without a stored state is
   * absent). Served from memory while the member's entry is fresh and covers them all; else
   * read for `wanted` and every popup `covering` names (the popups live for the member on any
   * screen, so that the next screen's call is served too), and held.
   */
  async read(userId: string, wanted: readonly string[], covering: () => Promise<readonly string[]>, now: Date): Promise<HeldStates> {
    if (!this.held.enabled) return this.load(userId, wanted);
    const entry = this.held.get(userId, now, (e) => wanted.every((id) => e.covers.has(id)));
    if (entry) return entry.states;
    const stamp = this.held.stamp();
    const covers = new Set([...wanted, ...(await covering())]);
    const states = await this.load(userId, [...covers]);
    for (const state of states.values()) Object.freeze(state);
    this.held.set(userId, { covers, states }, stamp, now);
    return states;
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
