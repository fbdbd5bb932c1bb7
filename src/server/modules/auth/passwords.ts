import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import { adjacencyGraphs, dictionary } from '@zxcvbn-ts/language-common';
import { dictionary as dictionaryEn } from '@zxcvbn-ts/language-en';
import { messages } from '#shared/messages/index';
import { hashOnThread, verifyOnThread } from '../../lib/argon2-threads';

/** OWASP argon2id parameters, set explicitly: the library default is weaker. */
export const ARGON2_OPTIONS = {
  algorithm: 2, // Algorithm.Argon2id (a const enum, not importable under verbatimModuleSyntax)
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * argon2id on a worker thread below the event loop's priority (lib/argon2-threads.ts). On
 * request paths these run through the app's hash pool (lib/hash-pool.ts), which bounds how
 * many run at once; seeding and the CLI call them directly.
 */
export function hashPassword(password: string): Promise<string> {
  return hashOnThread(password, ARGON2_OPTIONS);
}

/** False for a wrong password and for anything that is not an argon2 hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verifyOnThread(passwordHash, password);
  } catch {
    return false;
  }
}

let common: Set<string> | undefined;

/** True for a password in the bundled common-password list (case-insensitive). */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    (dictionary['passwords-common'] as string[]).filter((p) => p.length >= 8).map((p) => p.toLowerCase()),
  );
  return common.has(password.toLowerCase());
}

/** Who the password belongs to: parts of it that must not appear in it. */
export interface PasswordContext {
  email?: string;
  firstName?: string;
  lastName?: string;
  company?: string;
  brand: string;
}

let zxcvbn: ZxcvbnFactory | undefined;

/** The estimator with its dictionaries, built once on first use (the dictionaries are large). */
function estimator(): ZxcvbnFactory {
  zxcvbn ??= new ZxcvbnFactory({
    dictionary: { ...dictionary, ...dictionaryEn },
    graphs: adjacencyGraphs,
    // zxcvbn runs on the event loop, and crafted 128-character inputs (digit/symbol runs the
    // l33t matcher expands) took over a second. Scoring the first 64 characters with fewer
    // l33t substitutions bounds it (docs/decisions/password-policy.md); a password whose first
    // 64 characters are weak is refused, which costs nobody a real passphrase.
    maxLength: 64,
    l33tMaxSubstitutions: 10,
    // No translations: feedback comes back as keys, mapped to catalogue strings below.
  });
  return zxcvbn;
}

const MIN_SCORE = 3;
/** Parts shorter than this are ignored: "Al" or "Li" would refuse half of all passwords. */
const MIN_PART = 3;
/** A word of a longer value (an employer of several words, an email like jane.doe) counts from 4 letters. */
const MIN_WORD = 4;
const LEGAL_SUFFIXES = new Set(['company', 'corp', 'corporation', 'limited', 'incorporated']);

/** Lower case, accents dropped, only letters and digits: "Wéll-Haven" and "wellhaven" compare equal. */
function fold(s: string): string {
  return s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/** The whole value and each of its longer words, folded; short ones dropped. */
function partsOf(value: string | undefined): string[] {
  if (!value) return [];
  const parts = new Set<string>();
  const whole = fold(value);
  if (whole.length >= MIN_PART) parts.add(whole);
  for (const word of value.split(/[^\p{L}\p{N}]+/u)) {
    const w = fold(word);
    if (w.length >= MIN_WORD && !LEGAL_SUFFIXES.has(w)) parts.add(w);
  }
  return [...parts];
}

const hintFor: Record<string, keyof typeof messages.auth.validation.passwordWeakHints> = {
  straightRow: 'keyboard',
  keyPattern: 'keyboard',
  simpleRepeat: 'repeat',
  extendedRepeat: 'repeat',
  sequences: 'sequence',
  recentYears: 'dates',
  dates: 'dates',
  topTen: 'common',
  topHundred: 'common',
  common: 'common',
  similarToCommon: 'common',
  pwned: 'common',
  wordByItself: 'words',
  namesByThemselves: 'words',
  commonNames: 'words',
  userInputs: 'personal',
};

/**
 * Why a new password is refused (the user-facing message), or undefined when it is acceptable.
 * Length (8..128) is the schema's job; this adds what needs the person's details: no name,
 * email, employer or brand inside it, not on the common list, and a zxcvbn score of 3 or more
 * with those details counted as known words.
 */
export function passwordProblem(password: string, context: PasswordContext): string | undefined {
  const v = messages.auth.validation;
  const folded = fold(password);
  const contains = (value: string | undefined) => partsOf(value).some((part) => folded.includes(part));
  const local = context.email?.split('@')[0];
  // The whole address or local part first: "jane.doe" is better explained as the email than as the name.
  const wholeLocal = local ? fold(local) : '';
  if (context.email && (folded.includes(fold(context.email)) || (wholeLocal.length >= MIN_PART && folded.includes(wholeLocal)))) {
    return v.passwordHasEmail;
  }
  if (contains(context.firstName) || contains(context.lastName)) return v.passwordHasName;
  if (contains(local)) return v.passwordHasEmail;
  if (contains(context.company)) return v.passwordHasEmployer;
  if (contains(context.brand)) return v.passwordHasBrand;
  if (isCommonPassword(password)) return v.passwordCommon;
  const userInputs = [context.email, local, context.firstName, context.lastName, context.company, context.brand].filter(
    (s): s is string => Boolean(s),
  );
  const result = estimator().check(password, userInputs);
  if (result.score >= MIN_SCORE) return undefined;
  const hints = v.passwordWeakHints;
  const key = result.feedback.warning ? hintFor[result.feedback.warning] : undefined;
  return [v.passwordWeak, key ? hints[key] : undefined, hints.advice].filter(Boolean).join(' ');
}
