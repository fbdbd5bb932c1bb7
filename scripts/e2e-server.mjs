// Starts the built server on a fresh embedded database for one end-to-end run.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

rmSync(process.env.DATA_DIR, { recursive: true, force: true });
// End-to-end runs as `npm start` does: one process on the embedded database, counters in
// memory. PostgreSQL and the Redis-shared counters are covered by the API and fault tests.
delete process.env.DATABASE_URL;
delete process.env.REDIS_URL;
const out = process.env.BUILD_OUT ?? 'dist';
await import(pathToFileURL(path.resolve(out, 'server/main.js')).href);
