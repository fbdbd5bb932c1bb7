import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messages } from '#shared/messages/index';
import { HASH_THREAD_NICE } from '../../lib/argon2-threads';
import { hashPassword, passwordProblem, verifyPassword } from './passwords';

const v = messages.auth.validation;
const jane = { email: 'jane.doe@example.com', firstName: 'Jane', lastName: 'Doe', company: 'Acme Health Co', brand: 'Wellhaven' };

describe('passwordProblem', () => {
  it('refuses the three named examples, saying why', () => {
    expect(passwordProblem('Password1!', jane)).toMatch(/^This password is too easy to guess\./);
    expect(passwordProblem('Wellhaven1', jane)).toBe(v.passwordHasBrand);
    expect(passwordProblem('jane.doe@example.com', jane)).toBe(v.passwordHasEmail);
  });

  it('accepts a phrase of unrelated words', () => {
    expect(passwordProblem('violet tugboat margin', jane)).toBeUndefined();
    expect(passwordProblem('Sunny-meadow-2026', jane)).toBeUndefined();
  });

  it('refuses the first or last name, whatever the case or punctuation', () => {
    expect(passwordProblem('ilovejane-forever', jane)).toBe(v.passwordHasName);
    expect(passwordProblem('the DOE family tree', { ...jane, firstName: 'Marguerite' })).toBe(v.passwordHasName);
    expect(passwordProblem('Mister Fitz-Gerald 1', { ...jane, lastName: 'FitzGerald' })).toBe(v.passwordHasName);
    expect(passwordProblem('wonderful élodie boat', { ...jane, firstName: 'Elodie' })).toBe(v.passwordHasName);
  });

  it("refuses the email's local part, whole or by its longer words", () => {
    const ctx = { ...jane, firstName: 'Ann', lastName: 'Lee', email: 'skywalker.77@example.com' };
    expect(passwordProblem('i am skywalker77 ok', ctx)).toBe(v.passwordHasEmail);
    expect(passwordProblem('Luke Skywalker rides', ctx)).toBe(v.passwordHasEmail);
    expect(passwordProblem('maple glacier sonnet', ctx)).toBeUndefined();
  });

  it("refuses the employer's name, whole or a distinctive word of it, but not its legal suffix", () => {
    expect(passwordProblem('AcmeHealthCo forever', jane)).toBe(v.passwordHasEmployer);
    expect(passwordProblem('AcmeRocks2024!', jane)).toBe(v.passwordHasEmployer);
    expect(passwordProblem('company picnic orbit lantern', { ...jane, company: 'Globex Company' })).toBeUndefined();
  });

  it('refuses the brand name, even split by punctuation', () => {
    expect(passwordProblem('well-haven garden 9', jane)).toBe(v.passwordHasBrand);
    expect(passwordProblem('copper kettle 2026 apt', { ...jane, brand: 'Copper Kettle' })).toBe(v.passwordHasBrand);
  });

  it('ignores parts shorter than 3 characters', () => {
    const ctx = { email: 'al@example.com', firstName: 'Al', lastName: 'Li', company: 'QA', brand: 'Wellhaven' };
    expect(passwordProblem('calibrated quantum alpine', ctx)).toBeUndefined();
  });

  it('keeps the common-password message for list hits', () => {
    expect(passwordProblem('password123', jane)).toBe(v.passwordCommon);
  });

  it('says what made a weak password guessable', () => {
    expect(passwordProblem('aaaaaaaaaaaa', jane)).toBe(`${v.passwordWeak} ${v.passwordWeakHints.repeat} ${v.passwordWeakHints.advice}`);
    expect(passwordProblem('zxcvbnmasdfg', jane)).toMatch(/too (easy to guess|common)/);
  });

  it('counts the details as known words: a disguised email local part is too easy to guess', () => {
    const ctx = { email: 'zorblaxian@example.com', brand: 'Wellhaven' };
    expect(passwordProblem('Zorbl4xian-77', { brand: 'Wellhaven' })).toBeUndefined();
    expect(passwordProblem('Zorbl4xian-77', ctx)).toBe(`${v.passwordWeak} ${v.passwordWeakHints.personal} ${v.passwordWeakHints.advice}`);
    expect(passwordProblem('naixalbroz!42', ctx)).toMatch(/^This password is too easy to guess\./);
  });
});

describe('passwordProblem on crafted input', () => {
  it('stays fast on the longest passwords the schema allows (it runs on the event loop)', () => {
    passwordProblem('warm the dictionaries up', jane);
    const crafted = ['1qaz2wsx'.repeat(16), Array.from({ length: 128 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join(''), '4@3$1!0|7+5'.repeat(12).slice(0, 128)];
    for (const password of crafted) {
      const started = performance.now();
      passwordProblem(password, jane);
      // Over a second each before maxLength/l33tMaxSubstitutions; a generous bound for a busy CI machine.
      expect(performance.now() - started, password.slice(0, 16)).toBeLessThan(600);
    }
  });
});

describe('hashPassword and verifyPassword', () => {
  it('hash with the OWASP argon2id parameters and verify, false for a wrong password or a non-hash', async () => {
    const hashed = await hashPassword('violet tugboat margin');
    expect(hashed).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword(hashed, 'violet tugboat margin')).toBe(true);
    expect(await verifyPassword(hashed, 'violet tugboat margim')).toBe(false);
    expect(await verifyPassword('not a hash', 'violet tugboat margin')).toBe(false);
  });

  it.runIf(process.platform === 'linux')('hash on threads below the event loop in priority, the event loop itself untouched', async () => {
    // Two at once: two threads, both lowered.
    await Promise.all([hashPassword('first of two'), hashPassword('second of two')]);
    const niceOf = (task: string) => {
      // eslint-disable-next-line security/detect-non-literal-fs-filename -- a task id listed by /proc itself
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const niceValues = readdirSync('/proc/self/task').map(niceOf);
    expect(niceValues.filter((n) => n === HASH_THREAD_NICE).length).toBeGreaterThanOrEqual(2);
    // The main thread's task id is the process id.
    expect(niceOf(String(process.pid))).toBe(0);
  });
});
