import { LRUCache } from 'lru-cache';
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
  cachedAt: number;
}

/**
 * Each member's stored states of the popups live for them (user_popup_states: snoozes,
 * completions, the session a show was counted in), held in this process by member
 * (docs/decisions/popup-audiences-capping.md, "The popups in memory"). With the popups that
 * are on (live-popups.ts) and the session (session-cache.ts) held too, a member asking again
 * for their next popup costs no database statement until something of theirs changes.
 *
 * Only the member's own calls change their states (a show counted, a snooze, a completion),
 * and each is announced after it commits (`{ popupStates: userId }`, lib/notify.ts), which
 * drops the member's entry on every instance. The rest is kept honest as the other copies
 * are: any change to the popups, or to the member's account, drops it too; the TTL bounds
 * what a lost announcement could leave behind; while the channel between instances is down,
 * every call reads afresh; a read begun before a change was announced is not kept (the
 * generation has moved on). The database stays the judge of every write: a show, snooze or
 * completion re-checks the stored row in its own statement. Times are the caller's (the
 * app's injected clock).
 */
export class MemberPopupStates {
  private readonly entries: LRUCache<string, Entry>;
  private generation = 0;
  private live = true;

  constructor(
    private readonly load: (userId: string, popupIds: readonly string[]) => Promise<Map<string, MemberPopupState>>,
    private readonly options: MemberPopupStatesOptions,
  ) {
    this.entries = new LRUCache({ max: Math.max(1, options.max) });
  }

  get enabled(): boolean {
    return this.options.ttlMs > 0 && this.live;
  }

  /**
   * The member's states of the popups `wanted`, by popup id (a popup without a stored state is
   * absent). Served from memory while the member's entry is fresh and covers them all; else
   * read for `wanted` and every popup `covering` names (the popups live for the member on any
   * screen, so that the next screen's call is served too), and held.
   */
  async read(userId: string, wanted: readonly string[], covering: () => Promise<readonly string[]>, now: Date): Promise<HeldStates> {
    if (!this.enabled) return this.load(userId, wanted);
    const at = now.getTime();
    const entry = this.entries.get(userId);
    // A clock set back counts as stale too.
    if (entry && at >= entry.cachedAt && at - entry.cachedAt < this.options.ttlMs && wanted.every((id) => entry.covers.has(id))) return entry.states;
    const generation = this.generation;
    const covers = new Set([...wanted, ...(await covering())]);
    const states = await this.load(userId, [...covers]);
    for (const state of states.values()) Object.freeze(state);
    if (this.enabled && generation === this.generation) this.entries.set(userId, { covers, states, cachedAt: at });
    return states;
  }

  /** Whether states are held for this member, fresh or not (tests: has a change arrived yet?). */
  holds(userId: string): boolean {
    return this.entries.has(userId);
  }

  /** Drops the member's entry when their states or account changed, every entry when the popups did, or anything did (a gap in the channel). */
  invalidate(change: CacheChange): void {
    if ('sessionId' in change) return;
    this.generation += 1;
    if ('popupStates' in change) this.entries.delete(change.popupStates);
    else if ('userId' in change) this.entries.delete(change.userId);
    else this.entries.clear();
  }

  /** The channel between instances went down (bypass, forget) or came back (start afresh). */
  setLive(live: boolean): void {
    this.live = live;
    this.invalidate({ all: true });
  }
}
