import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '#db/client';
import type { Clock } from '../../lib/clock';
import * as repo from './auth.repository';

/** The random part of a token: 256 bits, as before tokens were signed. */
const RANDOM_BYTES = 32;
/** The signature's share of a token: the first 128 bits of HMAC-SHA-256 over the random part. */
const TAG_BYTES = 16;
/** A signed token in base64url: 48 bytes, 64 characters. */
const SIGNED_LENGTH = 64;
/** A token of the format before signing (`lib/crypto.ts`'s `newToken`): 32 bytes, 43 characters. */
const UNSIGNED_LENGTH = 43;
const KEY_BYTES = 32;
const KEY_NAME = 'session_tokens';
/** How often each instance reads the key and the unsigned sessions' state again. */
const SESSION_TOKENS_REFRESH_MS = 60_000;

/**
 * The bearer tokens sessions are opened with, signed with a key every instance shares
 * (`server_keys`), so that a token this server did not issue is refused without a database
 * lookup: before, each request with a made-up token cost one, and a flood of them kept the
 * database busy for nothing. The signature is checked only when the session cache does not
 * hold the token (a signed-in member's repeated requests do not pay for it).
 * docs/decisions/sessions-and-tokens.md.
 *
 * The signature says "issued here", nothing more: the session row (found by the token's
 * SHA-256) still decides, as before, whether the token opens anything.
 */
export class SessionTokens {
  constructor(
    private key: Buffer,
    /** Whether a session opened with an unsigned token (before signing, or by an instance still running that code) can be live. */
    private unsignedLive: boolean,
  ) {}

  /** A new token: 32 random bytes and their tag, base64url. */
  mint(): string {
    const random = randomBytes(RANDOM_BYTES);
    return Buffer.concat([random, this.tag(random)]).toString('base64url');
  }

  /**
   * Whether `token` can name a session at all, so is worth looking up: signed with this key, or
   * of the unsigned format while a session opened with such a token can be live.
   */
  mayName(token: string): boolean {
    if (token.length === UNSIGNED_LENGTH) return this.unsignedLive;
    if (token.length !== SIGNED_LENGTH) return false;
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length !== RANDOM_BYTES + TAG_BYTES) return false;
    return timingSafeEqual(bytes.subarray(RANDOM_BYTES), this.tag(bytes.subarray(0, RANDOM_BYTES)));
  }

  /** What the database says now: the shared key (another one once the row was replaced) and the unsigned sessions' state. */
  update(key: Buffer, unsignedLive: boolean) {
    this.key = key;
    this.unsignedLive = unsignedLive;
  }

  private tag(random: Buffer): Buffer {
    return createHmac('sha256', this.key).update(random).digest().subarray(0, TAG_BYTES);
  }
}

/** Reads (the first caller makes) the shared key, and whether an unsigned session is live at `now`. */
async function readState(db: DbOrTx, now: Date): Promise<[Buffer, boolean]> {
  const secret = await repo.sharedKey(db, KEY_NAME, randomBytes(KEY_BYTES).toString('hex'));
  const key = Buffer.from(secret, 'hex');
  if (key.length !== KEY_BYTES) throw new Error(`server key ${KEY_NAME} is not ${KEY_BYTES} bytes of hex`);
  return [key, await repo.unsignedSessionLive(db, now)];
}

/** The tokens as the database has them now, once: for a script that opens sessions itself (the benches). */
export async function readSessionTokens(db: DbOrTx, now = new Date()): Promise<SessionTokens> {
  return new SessionTokens(...(await readState(db, now)));
}

export interface SessionTokensSource {
  /** The tokens, read from the database on first need (again after a failed read). */
  get(): Promise<SessionTokens>;
  /** Reads the key and the unsigned sessions' state again now (the timer does it every SESSION_TOKENS_REFRESH_MS). */
  refresh(): Promise<void>;
  close(): void;
}

/**
 * The instance's session tokens. Read on first need, not at start: an instance that starts
 * while the database is out of reach answers 503 until it is back, as for any lookup. Then
 * read again every minute, so that every instance follows the database: unsigned tokens stop
 * being looked up within a minute of the last live unsigned session ending (and are looked up
 * again within a minute if an instance of the earlier code issues one, as during a rolling
 * deploy or a rollback), and a replaced key is used by all within a minute.
 */
export function sessionTokensOf(db: DbOrTx, clock: Clock, onError: (err: unknown) => void): SessionTokensSource {
  let loading: Promise<SessionTokens> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const refresh = async () => {
    if (!loading) return;
    const tokens = await loading;
    tokens.update(...(await readState(db, clock())));
  };
  return {
    get: () =>
      (loading ??= readState(db, clock()).then(
        ([key, unsignedLive]) => {
          if (!closed) timer = setInterval(() => refresh().catch(onError), SESSION_TOKENS_REFRESH_MS).unref();
          return new SessionTokens(key, unsignedLive);
        },
        (err: unknown) => {
          loading = undefined;
          throw err;
        },
      )),
    refresh,
    close: () => {
      closed = true;
      clearInterval(timer);
    },
  };
}
