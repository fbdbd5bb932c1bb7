// `npm start` on a fresh clone: install what is missing, build, then serve.
// Runs on the system Node (20) before node_modules exists; everything after uses Node 24.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync, readdirSync } from 'node:fs';
import path from 'node:path';

const run = (cmd, args) => {
  const result = spawnSync(cmd, args, { stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
};

if (!existsSync('node_modules/.package-lock.json')) {
  console.log('Installing dependencies...');
  run('npm', ['ci', '--no-audit', '--no-fund']);
}

const newest = (dir) => {
  let t = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    t = Math.max(t, entry.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
};
const built = existsSync('dist/server/main.js') && existsSync('dist/client/index.html');
if (!built || newest('src') > statSync('dist/server/main.js').mtimeMs) {
  console.log('Building...');
  run('npm', ['run', 'build']);
}

run('npm', ['run', 'serve']);
