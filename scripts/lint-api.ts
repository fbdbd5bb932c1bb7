// `npm run lint:api`: the OpenAPI document as the app serves it, held to Redocly's
// recommended ruleset with zero errors and zero warnings, and a client generated from it
// (openapi-typescript) type-checked against a small snippet. Built in-process: an in-memory
// PGlite database that is never queried (the document needs only the route table).
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from '../src/db/client';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config';

const out = path.resolve('.tmp/openapi');
mkdirSync(out, { recursive: true });
const documentFile = path.join(out, 'openapi.json');

const database = await openDatabase({});
const app = await buildApp({
  config: loadConfig({ NODE_ENV: 'test', SERVE_CLIENT: '0', AUDIT_HMAC_SECRET: 'lint-api-only-lint-api-only' }),
  database,
  logger: { level: 'error' },
});
await app.ready();
const answer = await app.inject({ url: '/api/openapi.json' });
await app.close();
await database.close();
if (answer.statusCode !== 200) {
  console.error(`GET /api/openapi.json answered ${answer.statusCode}`);
  process.exit(1);
}
writeFileSync(documentFile, answer.body);
// Also at the path the docs name, for a reader who wants to open it.
writeFileSync(path.resolve('.tmp/openapi.json'), answer.body);

function run(name: string, cmd: string, args: string[]): boolean {
  const result = spawnSync(cmd, args, { stdio: 'inherit' });
  if (result.status !== 0) console.error(`lint:api: ${name} failed`);
  return result.status === 0;
}

// Zero problems of any severity: a warning fails as an error does (the exit code covers errors only).
const lint = spawnSync('npx', ['redocly', 'lint', documentFile, '--extends=recommended', '--format=json', '--lint-config=off', '--max-problems=1000'], { encoding: 'utf8' });
let problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
try {
  problems = (JSON.parse(lint.stdout) as { problems: typeof problems }).problems;
} catch {
  console.error(lint.stdout, lint.stderr);
  console.error('lint:api: Redocly did not run');
  process.exit(1);
}
for (const p of problems) console.error(`${p.severity.padEnd(5)} ${p.ruleId}: ${p.message} (${p.location[0]?.pointer ?? ''})`);
const errors = problems.filter((p) => p.severity === 'error').length;
console.log(`Redocly (recommended): ${errors} errors, ${problems.length - errors} warnings`);
if (problems.length > 0) process.exit(1);

const typesFile = path.join(out, 'schema.d.ts');
if (!run('openapi-typescript', 'npx', ['openapi-typescript', documentFile, '--output', typesFile, '--silent'])) process.exit(1);

// A client written against the generated types: what a consumer of the document would write.
writeFileSync(
  path.join(out, 'client-snippet.ts'),
  `import type { paths, components } from './schema';

type FamilyList = paths['/api/family-members']['get']['responses'][200]['content']['application/json'];
type NewFamilyMember = NonNullable<paths['/api/family-members']['post']['requestBody']>['content']['application/json'];
type ErrorBody = paths['/api/family-members']['post']['responses'][400]['content']['application/json'];

export function firstName(list: FamilyList): string | undefined {
  return list.familyMembers[0]?.firstName;
}
export const draft: Pick<NewFamilyMember, 'firstName' | 'lastName'> = { firstName: 'Ana', lastName: 'Diaz' };
export function isSnoozeLimit(body: ErrorBody): boolean {
  return body.code === 'snooze_limit_reached';
}
// @ts-expect-error a code outside the shared enum is not an error code
export const unknownCode: ErrorBody['code'] = 'teapot';
export const employerPath: paths['/api/admin/employers/{companyId}']['get']['parameters']['path'] = { companyId: '00000000-0000-4000-8000-000000000000' };
type NotFound = paths['/api/admin/employers/{companyId}']['get']['responses'][404]['content']['application/json'];
export const notFound: NotFound = { error: 'Employer not found', code: 'not_found' };
export type Operations = keyof components extends never ? never : true;
`,
);
// TypeScript 7's compiler, as `npm run typecheck` runs it (docs/decisions/toolchain-versions.md).
const tsc = run('type-check of the generated client', process.execPath, [
  path.resolve('node_modules/typescript-7/bin/tsc'),
  '--ignoreConfig',
  '--noEmit',
  '--strict',
  '--skipLibCheck',
  '--target',
  'ES2023',
  '--module',
  'ESNext',
  '--moduleResolution',
  'bundler',
  path.join(out, 'client-snippet.ts'),
]);
if (!tsc) process.exit(1);
console.log('lint:api: the OpenAPI document passes Redocly (recommended) and its generated client type-checks');
