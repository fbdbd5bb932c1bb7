/**
 * zod 4 probes `new Function('')` when it first builds an object parser, to decide whether it
 * may compile faster parsers. This app's CSP has no 'unsafe-eval', so the probe is refused and
 * Chromium logs a CSP violation on every page that parses with zod (Lighthouse Best Practices:
 * "Issues were logged"). Without JIT zod skips the probe and parses as it must under that CSP
 * anyway.
 *
 * `z.config({ jitless: true })` would do this, but importing it would put zod's core module in
 * every page's first download. zod keeps that configuration on `globalThis.__zod_globalConfig`
 * and adopts an object already there, so main.tsx imports this module before any zod chunk can
 * load (zod-csp.test.ts checks zod still reads it).
 */
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
