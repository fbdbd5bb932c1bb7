import { isIP } from 'node:net';
import { z } from 'zod';

const isAddressOrRange = (entry: string) => {
  const [address = '', bits, ...rest] = entry.split('/');
  return rest.length === 0 && isIP(address) !== 0 && (bits === undefined || /^\d{1,3}$/.test(bits));
};
import { mixesScripts } from '#shared/schemas/employer-name';
import { parseAllowList } from './lib/allow-list';
import { parseCardSigningKey } from './modules/cards/signing-key';

const bool = z
  .enum(['0', '1', 'true', 'false'])
  .transform((v) => v === '1' || v === 'true');

/** WCAG 2 contrast ratio of a #rrggbb colour against white. */
export function contrastWithWhite(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  const luminance = 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
  return 1.05 / (luminance + 0.05);
}

const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.url().optional());

/** BRAND_PRIMARY_COLOR when unset; the one place the server writes the default brand colour. */
export const DEFAULT_BRAND_PRIMARY_COLOR = '#0f766e';

/** Every environment variable the server reads, parsed once at boot. */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl,
  DB_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  REDIS_URL: optionalUrl,
  /**
   * How long a resolved session is served from memory before the database is asked again
   * (docs/decisions/session-cache.md); 0 turns the session cache off. Changes reach every
   * instance at once (Redis pub/sub with REDIS_URL, else PostgreSQL LISTEN/NOTIFY); this bounds
   * what a lost announcement could leave behind.
   */
  SESSION_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Most sessions held in that cache per instance (least recently used go first). */
  SESSION_CACHE_MAX: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
  /**
   * How long the popups that are on are served from memory before the database is asked again
   * (modules/popups/live-popups.ts); 0 turns that off. Every change to a popup reaches every
   * instance at once on the sessions' channel; this bounds what a lost announcement could leave.
   */
  POPUPS_CACHE_TTL_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),
  /** Unset: on for the embedded database (`npm start`), off with DATABASE_URL (a real deployment). */
  DEMO_DATA: bool.optional(),
  ADMIN_EMAIL: z.preprocess((v) => (v === '' ? undefined : v), z.email().optional()),
  ADMIN_PASSWORD: z.preprocess((v) => (v === '' ? undefined : v), z.string().min(8).max(128).optional()),
  ADMIN_COMPANY: z
    .string()
    .trim()
    .min(1)
    .refine((name) => !mixesScripts(name), 'must not mix Latin letters with Cyrillic or Greek letters')
    .default('Program Administration'),
  /**
   * Ed25519 private key ID cards are signed with: PKCS#8 PEM, or base64 of the PKCS#8 DER or
   * the 32-byte seed. Unset: generated once into DATA_DIR/card-signing-key.pem (modules/cards).
   */
  CARD_SIGNING_KEY: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .refine((key) => {
        try {
          parseCardSigningKey(key);
          return true;
        } catch {
          return false;
        }
      }, 'must be an Ed25519 private key: PKCS#8 PEM, or base64 of the PKCS#8 DER or of the 32-byte seed')
      .optional(),
  ),
  /** Secret for hashing user agents in audits; a random one per boot when unset. */
  AUDIT_HMAC_SECRET: z.string().min(16).optional(),
  AUTH_RATE_LIMIT_PER_IP: z.coerce.number().int().min(1).default(30),
  /** argon2id hashes run at once (sign-in, registration, password changes); unset: one per core. */
  PASSWORD_HASH_CONCURRENCY: z.coerce.number().int().min(1).max(256).optional(),
  /** Hashes that may wait for a core; beyond them 503 with Retry-After at once. Unset: twice the concurrency. */
  PASSWORD_HASH_QUEUE: z.coerce.number().int().min(0).max(10_000).optional(),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10 * 1024 * 1024).default(64 * 1024),
  /** A request's body must arrive in full within this (408 and the connection closed); roster uploads watch their own pace. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(20_000),
  /** A request's headers must arrive within this. */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  /** A connection silent this long in the middle of a request or an answer is closed. */
  CONNECTION_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  /** An idle keep-alive connection is closed after this; above a proxy's own idle timeout (60 s for nginx and AWS ALB). */
  KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(72_000),
  /**
   * Proxies in front of the app: 0 (none, the default), a hop count, or the proxies'
   * addresses/CIDR ranges. Never "trust everything": the client writes the left-most
   * X-Forwarded-For entry itself.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('0')
    .transform((v, ctx) => {
      if (v === '' || v === '0' || v === 'false') return false as const;
      if (/^\d{1,2}$/.test(v)) return Number(v);
      const entries = v.split(',').map((e) => e.trim()).filter(Boolean);
      if (entries.every(isAddressOrRange)) return entries.join(',');
      ctx.addIssue({ code: 'custom', message: 'must be 0, a hop count, or proxy addresses/CIDR ranges separated by commas' });
      return z.NEVER;
    }),
  /** Who may scrape GET /metrics: addresses or CIDR ranges, comma-separated; empty for nobody. */
  METRICS_ALLOW: z
    .string()
    .default('127.0.0.1,::1')
    .refine((spec) => {
      try {
        parseAllowList(spec);
        return true;
      } catch {
        return false;
      }
    }, 'must be IP addresses or CIDR ranges separated by commas'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SERVE_CLIENT: bool.default(true),
  CLIENT_DIR: z.string().min(1).default('./dist/client'),
  BRAND_NAME: z.string().trim().min(1).max(60).default('Wellhaven'),
  BRAND_LOGO_URL: z.string().trim().min(1).default('/logo.svg'),
  /** White text sits on it (buttons, menu, ID card), so it must reach WCAG AA 4.5:1 with white. */
  BRAND_PRIMARY_COLOR: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a #rrggbb colour')
    .refine((hex) => contrastWithWhite(hex) >= 4.5, 'must be dark enough for white text (contrast with white at least 4.5:1)')
    .default(DEFAULT_BRAND_PRIMARY_COLOR),
  VITAL_SCAN_URL: z.url().default('https://example.org/vital-scan'),
  WELLNESS_PROGRAM_URL: z.url().default('https://example.org/daily-wellness'),
  /** smtp:// or smtps:// (TLS); unset keeps mail in the outbox and prints each message's subject and link. */
  SMTP_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  ),
  MAIL_FROM: z.string().trim().min(3).default('Wellhaven <no-reply@wellhaven.example>'),
  /** Where members reach the app; links in emails start with it. Default http://localhost:PORT. */
  PUBLIC_URL: optionalUrl,
  /** Enrolment mode of employers created from now on: `open` (find or create by name) or `roster`. */
  ENROLMENT_MODE: z.enum(['open', 'roster']).default('open'),
  /**
   * The https sites a popup's button may open, comma-separated; unset: the vital-scan and
   * wellness URLs. (App paths are always allowed; the vital-scan URL is every popup's default.)
   */
  POPUP_ACTION_URLS: z
    .string()
    .optional()
    .transform((s) => (s === undefined || s.trim() === '' ? undefined : s.split(',').map((x) => x.trim()).filter(Boolean)))
    .pipe(z.array(z.url({ protocol: /^https$/, error: 'must be https URLs separated by commas' })).optional()),
  /** At most this many different popups per member per local day (1-20); unset: no cap. A popup may set its own. */
  POPUPS_DAILY_CAP: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).max(20).optional()),
  /** No popup during these local hours of the member, "22:00-07:00" (may wrap midnight); unset: none. A popup may set its own. */
  POPUPS_QUIET_HOURS: z
    .preprocess((v) => (v === '' ? undefined : v), z.string().regex(/^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM-HH:MM, e.g. 22:00-07:00').optional())
    .transform((v) => (v === undefined ? undefined : { start: v.slice(0, 5), end: v.slice(6) }))
    .refine((q) => q === undefined || q.start !== q.end, 'must start and end at different times'),
  /** GET /api/popups/next calls per member a minute. */
  POPUPS_NEXT_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  HELP_VIDEO_IDS: z
    .string()
    .default('')
    .transform((s) => s.split(',').map((x) => x.trim()).filter(Boolean))
    .pipe(z.array(z.string().regex(/^[A-Za-z0-9_-]{6,20}$/, 'video ids are 6-20 letters, digits, - or _'))),
});

export type Config = Omit<z.infer<typeof ConfigSchema>, 'DEMO_DATA' | 'PUBLIC_URL' | 'POPUP_ACTION_URLS'> & {
  DEMO_DATA: boolean;
  PUBLIC_URL: string;
  POPUP_ACTION_URLS: string[];
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Parses the environment; throws a ConfigError naming every bad key. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const result = ConfigSchema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`),
    );
  }
  const parsed = result.data;
  return {
    ...parsed,
    DEMO_DATA: parsed.DEMO_DATA ?? !parsed.DATABASE_URL,
    PUBLIC_URL: (parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`).replace(/\/+$/, ''),
    // Compared and stored in URL-normalised form (a bare origin gains its "/").
    POPUP_ACTION_URLS: [
      ...new Set((parsed.POPUP_ACTION_URLS ?? [parsed.VITAL_SCAN_URL, parsed.WELLNESS_PROGRAM_URL].filter((u) => u.startsWith('https:'))).map((u) => new URL(u).href)),
    ],
  };
}
