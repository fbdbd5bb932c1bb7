/**
 * The write stream of the fault scripts and its ledger: what was sent, what was
 * acknowledged, and what the database must therefore hold.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Sql } from './consistency';
import { call, memberData } from './support';

export interface Member {
  userId: string;
  token: string;
}
interface FamilyRow {
  owner: string;
  value: string;
  /** A name sent but not answered when the server died: the row may hold either. */
  pending?: string;
  deleted: 'no' | 'inflight' | 'acked';
}

export class Ledger {
  users = new Map<string, 'inflight' | 'acked'>();
  family = new Map<string, FamilyRow>();
  snoozes = new Map<string, number>();
  sent = 0;
  acked = 0;
  unanswered = 0;
  refused = 0;
  serverErrors: string[] = [];

  answer(status: number, what: string) {
    this.sent += 1;
    if (status === 0) this.unanswered += 1;
    else if (status >= 500) this.serverErrors.push(`${what} -> ${status}`);
    else if (status >= 400) this.refused += 1;
    else this.acked += 1;
  }
}

/**
 * Polls until the ledger has acknowledged at least `target` writes: `true` once it has,
 * `false` if `timeoutMs` passes first (the writers are getting nothing acknowledged).
 */
export async function untilAcked(ledger: Ledger, target: number, timeoutMs = 20_000): Promise<boolean> {
  const deadline = performance.now() + timeoutMs;
  while (ledger.acked < target) {
    if (performance.now() > deadline) return false;
    await sleep(20);
  }
  return true;
}

/**
 * One writer: registrations, family adds, edits and deletes (only of rows its own members
 * own, so a row never has two writes in flight), and snoozes, until `alive()` turns false.
 * `baseFor` picks the instance for each request (a load balancer's round robin).
 */
export async function writer(baseFor: () => string, members: Member[], popups: string[], ledger: Ledger, alive: () => boolean, rand: () => number) {
  const pick = <T>(list: T[]) => list[Math.floor(rand() * list.length)]!;
  const mine = new Set(members.map((m) => m.userId));
  while (alive()) {
    const base = baseFor();
    const r = rand();
    // Many clients behind the proxy, so the per-IP limit (when TRUST_PROXY is on) meters each.
    const headers = { 'x-forwarded-for': `203.0.113.${1 + Math.floor(rand() * 250)}` };
    const member = pick(members);
    if (r < 0.15) {
      const data = memberData('crash');
      ledger.users.set(data.email, 'inflight');
      const res = await call(`${base}/api/auth/register`, { headers, method: 'POST', body: data });
      ledger.answer(res.status, 'register');
      if (res.status === 201) ledger.users.set(data.email, 'acked');
      else if (res.status !== 0) ledger.users.delete(data.email);
    } else if (r < 0.5) {
      const firstName = `F${randomUUID().slice(0, 8)}`;
      const res = await call(`${base}/api/family-members`, { headers, method: 'POST', token: member.token, body: { firstName, lastName: 'Crash', dob: '1990-05-06', relationship: 'Child' } });
      ledger.answer(res.status, 'add family member');
      if (res.status === 201) ledger.family.set((res.body as { id: string }).id, { owner: member.userId, value: firstName, deleted: 'no' });
    } else if (r < 0.8) {
      const rows = [...ledger.family.entries()].filter(([, row]) => mine.has(row.owner) && row.deleted === 'no' && row.pending === undefined);
      if (rows.length === 0) continue;
      const [id, row] = pick(rows);
      const owner = members.find((m) => m.userId === row.owner)!;
      if (r < 0.7) {
        const firstName = `E${randomUUID().slice(0, 8)}`;
        row.pending = firstName;
        const res = await call(`${base}/api/family-members/${id}`, { headers, method: 'PUT', token: owner.token, body: { firstName, lastName: 'Crash', dob: '1990-05-06', relationship: 'Spouse' } });
        ledger.answer(res.status, 'edit family member');
        if (res.status === 200) {
          row.value = firstName;
          row.pending = undefined;
        } else if (res.status !== 0) row.pending = undefined;
      } else {
        row.deleted = 'inflight';
        const res = await call(`${base}/api/family-members/${id}`, { headers, method: 'DELETE', token: owner.token });
        ledger.answer(res.status, 'delete family member');
        if (res.status === 204) row.deleted = 'acked';
        else if (res.status !== 0) row.deleted = 'no';
      }
    } else {
      const popup = pick(popups);
      const res = await call(`${base}/api/popups/${popup}/snooze`, { headers, method: 'POST', token: member.token });
      ledger.answer(res.status, 'snooze');
      if (res.status === 200) {
        const key = `${member.userId}:${popup}`;
        ledger.snoozes.set(key, Math.max(ledger.snoozes.get(key) ?? 0, (res.body as { snoozeCount: number }).snoozeCount));
      }
    }
  }
}

/**
 * Compares the database with what was acknowledged; returns the writes lost. Then settles
 * every unanswered write from what the database holds, so the next round starts certain.
 */
export async function verify(db: Sql, ledger: Ledger): Promise<string[]> {
  const lost: string[] = [];
  const emails = [...ledger.users.keys()];
  const present = new Set((await db.rows<{ email: string }>('select email from users where email = any($1)', [emails])).map((r) => r.email));
  for (const [email, state] of ledger.users) {
    if (state === 'acked' && !present.has(email)) lost.push(`registration ${email}`);
    if (state === 'inflight') {
      if (present.has(email)) ledger.users.set(email, 'acked');
      else ledger.users.delete(email);
    }
  }
  const ids = [...ledger.family.keys()];
  const rows = new Map((await db.rows<{ id: string; first_name: string }>('select id::text as id, first_name from family_members where id = any($1::uuid[])', [ids])).map((r) => [r.id, r.first_name]));
  for (const [id, row] of ledger.family) {
    const actual = rows.get(id);
    if (row.deleted === 'acked') {
      if (actual !== undefined) lost.push(`deletion of family member ${id}`);
      continue;
    }
    if (actual === undefined) {
      if (row.deleted === 'no') lost.push(`family member ${id}`);
      else row.deleted = 'acked';
      continue;
    }
    if (actual !== row.value && actual !== row.pending) lost.push(`edit of family member ${id}: has ${actual}, acknowledged ${row.value}`);
    row.value = actual;
    row.pending = undefined;
    row.deleted = 'no';
  }
  const states = await db.rows<{ k: string; n: number }>("select user_id::text || ':' || popup_id::text as k, snooze_count as n from user_popup_states");
  const counts = new Map(states.map((s) => [s.k, Number(s.n)]));
  for (const [key, acked] of ledger.snoozes) {
    if ((counts.get(key) ?? 0) < acked) lost.push(`snooze ${key}: has ${counts.get(key) ?? 0}, acknowledged ${acked}`);
  }
  return lost;
}

