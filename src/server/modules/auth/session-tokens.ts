import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '#db/client';
import { serverKeys } from '#db/schema';
import { ABSOLUTE_TIMEOUT_MS } from './session-rules';

/** The random part of a token: 256 bits, as before tokens were signed. */
const RANDOM_BYTES = 32;
/** The signature's share of a token: the first 128 bits of HMAC-SHA-256 over the random part. */
const TAG_BYTES = 16;
/** A signed token in base64url: 48 bytes, 64 characters. */
const SIGNED_LENGTH = 64;
/** A token of the format before signing (`lib/crypto.ts`'s `newToken`): 32 bytes, 43 characters. */
const UNSIGNED_LENGTH = 43;
const KEY_NAME = 'session_tokens';

/**
 * The bearer tokens sessions are opened with, signed with a key every instance shares
 * (`server_keys`), so that a token this server did not issue is refused without a database
 * lookup: before, each request with a made-up token cost one, and a flood of them kept the
 * embedded database's one connection from the members'. The signature is checked only when the
 * session cache does not hold the token (a signed-in member's requests do not pay for it).
 * docs/decisions/sessions-and-tokens.md.
 *
 * The signature says "issued here", nothing more: the session row (found by the token's
 * SHA-256) still decides, as before, whether the token opens anything.
 */
export class SessionTokens {
  constructor(
    private readonly key: Buffer,
    /** Until then a token of the unsigned format may still name a live session: it was issued before the key existed. */
    private readonly unsignedUntil: Date,
  ) {}

  /** A new token: 32 random bytes and their tag, base64url. */
  mint(): string {
    const random = randomBytes(RANDOM_BYTES);
    return Buffer.concat([random, this.tag(random)]).toString('base64url');
  }

  /**
   * Whether `token` can name a session at all, so is worth looking up: signed with this key, or
   * of the unsigned format while a session opened before the key existed can still be live
   * (sessions end after ABSOLUTE_TIMEOUT_MS whatever happens).
   */
  mayName(token: string, now: Date): boolean {
    if (token.length === UNSIGNED_LENGTH) return now < this.unsignedUntil;
    if (token.length !== SIGNED_LENGTH) return false;
    const bytes = Buffer.from(token, 'base64url');
    if (bytes.length !== RANDOM_BYTES + TAG_BYTES) return false;
    return timingSafeEqual(bytes.subarray(RANDOM_BYTES), this.tag(bytes.subarray(0, RANDOM_BYTES)));
  }

  private tag(random: Buffer): Buffer {
    return createHmac('sha256', this.key).update(random).digest().subarray(0, TAG_BYTES);
  }
}

/**
 * The shared key, made by the first instance to start with this code (a second one starting at
 * the same moment finds the first one's: the insert does nothing on a conflict) and read by
 * every instance after. Its age bounds how long unsigned tokens are looked up.
 */
export async function loadSessionTokens(db: DbOrTx): Promise<SessionTokens> {
  await db
    .insert(serverKeys)
    .values({ name: KEY_NAME, secret: randomBytes(32).toString('hex') })
    .onConflictDoNothing({ target: serverKeys.name });
  const [row] = await db
    .select({ secret: serverKeys.secret, createdAt: serverKeys.createdAt })
    .from(serverKeys)
    .where(eq(serverKeys.name, KEY_NAME));
  if (!row) throw new Error('the session token key could not be read');
  return new SessionTokens(Buffer.from(row.secret, 'hex'), new Date(row.createdAt.getTime() + ABSOLUTE_TIMEOUT_MS));
}

/**
 * The key, read once on first need (and again after a failed read): an instance starts while
 * the database is out of reach, and its requests answer 503 until it is back, as for any lookup.
 */
export function sessionTokensOf(db: DbOrTx): () => Promise<SessionTokens> {
  let loading: Promise<SessionTokens> | undefined;
  return () =>
    (loading ??= loadSessionTokens(db).catch((err: unknown) => {
      loading = undefined;
      throw err;
    }));
}
