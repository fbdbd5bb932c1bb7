/**
 * The kinds of caller the route-table tests (authorization, fuzz) send every request as, what
 * each may do at each access level, and fresh bearer headers for each.
 */
import { setAdminRole } from '../../../src/server/modules/auth/admin-bootstrap';
import type { Access } from '../../../src/server/plugins/auth';
import { type TestApp, freshSessionHeaders } from './test-app';

export const CALLERS = ['anonymous', 'member', 'admin without step-up', 'elevated admin'] as const;
export type Caller = (typeof CALLERS)[number];
export type Expectation = 'allowed' | 401 | 403;

/**
 * What each kind of caller gets from a route of each access level. Exhaustive by type: a new
 * access level does not compile (and throws) until someone decides what each caller may do.
 */
export function expectationFor(access: Access, caller: Caller): Expectation {
  switch (access) {
    case 'public':
      return 'allowed';
    case 'member':
      return caller === 'anonymous' ? 401 : 'allowed';
    case 'admin':
      if (caller === 'anonymous') return 401;
      return caller === 'elevated admin' ? 'allowed' : 403;
    default: {
      const unknown: never = access;
      throw new Error(`No authorization expectation for access level "${String(unknown)}"`);
    }
  }
}

/**
 * The signed-in callers of one test app. `setUp` records a registered member and makes a
 * second registered member an administrator (not stepped up); `headersFor` gives a brand-new
 * session per call, so sign-out or step-up in one case cannot leak into the next.
 */
export function callerSessions(t: TestApp) {
  const accounts: Record<Exclude<Caller, 'anonymous'>, string> = { member: '', 'admin without step-up': '', 'elevated admin': '' };
  return {
    async setUp(member: { id: string }, admin: { id: string; email: string }) {
      await setAdminRole(t.database.db, admin.email, true);
      accounts.member = member.id;
      accounts['admin without step-up'] = admin.id;
      accounts['elevated admin'] = admin.id;
    },
    async headersFor(caller: Caller): Promise<Record<string, string>> {
      if (caller === 'anonymous') return {};
      if (!accounts[caller]) throw new Error(`callerSessions: setUp has not run (no account for "${caller}")`);
      return freshSessionHeaders(t, accounts[caller], { elevated: caller === 'elevated admin' });
    },
  };
}
