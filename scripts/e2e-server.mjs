// Starts the built server on a fresh embedded database for one end-to-end run.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

rmSync(process.env.DATA_DIR, { recursive: true, force: true });
delete process.env.DATABASE_URL; // end-to-end runs on the embedded default
const out = process.env.BUILD_OUT ?? 'dist';
await import(pathToFileURL(path.resolve(out, 'server/main.js')).href);
