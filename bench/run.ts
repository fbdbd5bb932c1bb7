// `npm run bench`: runs every benchmark module in bench/ (or those named on the command line)
// and prints its figures. Speeds are ratios against a baseline measured in the same run.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const modules = readdirSync(here)
  .filter((f) => f.endsWith('.ts') && !['run.ts', 'support.ts'].includes(f))
  .map((f) => f.replace(/\.ts$/, ''))
  .filter((name) => wanted.length === 0 || wanted.includes(name));

for (const name of modules) {
  const mod = (await import(pathToFileURL(path.join(here, `${name}.ts`)).href)) as { run?: () => Promise<Record<string, unknown>> };
  if (!mod.run) continue;
  console.log(`\n## ${name}`);
  const started = Date.now();
  try {
    const figures = await mod.run();
    for (const [key, value] of Object.entries(figures)) console.log(`  ${key}: ${value}`);
  } catch (err) {
    console.log(`  FAILED: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  }
  console.log(`  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
