// Writes a .br (brotli 11) and a .gz (gzip 9) next to every text file of the built client,
// each only where it is smaller than the file itself, so the server sends them as they are
// (@fastify/static `preCompressed`) and never compresses a file per request.
// Usage: node scripts/precompress.mjs [dir]   (default: $BUILD_OUT/client, BUILD_OUT=dist)
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** What is worth compressing: text formats (images, fonts and archives are compressed already). */
const TEXT = /\.(?:js|mjs|css|html|svg|json|webmanifest|txt|xml|map|ico|wasm)$/i;
/** Below this a compressed copy saves less than its own headers cost. */
const MIN_BYTES = 256;

async function* files(dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (entry.isFile()) yield full;
  }
}

/** Compresses one file; returns the sizes written (0: not written, it would not be smaller). */
async function compressFile(file) {
  const source = await readFile(file);
  const [br, gzipped] = await Promise.all([
    brotli(source, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    }),
    gz(source, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  const written = { file, size: source.length, br: 0, gz: 0 };
  for (const [ext, data] of [['br', br], ['gz', gzipped]]) {
    const target = `${file}.${ext}`;
    if (data.length < source.length) {
      await writeFile(target, data);
      written[ext] = data.length;
    } else {
      // A stale copy from an earlier build must not outlive its original's new content.
      await rm(target, { force: true });
    }
  }
  return written;
}

/** Precompresses every text file under `dir` (a few at a time: zlib runs on the thread pool). */
export async function precompress(dir) {
  const queue = [];
  for await (const file of files(dir)) {
    if (!TEXT.test(file) || (await stat(file)).size < MIN_BYTES) continue;
    queue.push(file);
  }
  const results = [];
  const worker = async () => {
    for (let file = queue.shift(); file; file = queue.shift()) results.push(await compressFile(file));
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return results;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dir = process.argv[2] ?? `${process.env.BUILD_OUT ?? 'dist'}/client`;
  const started = Date.now();
  const results = await precompress(dir);
  const total = (key) => results.reduce((sum, r) => sum + r[key], 0);
  const kib = (n) => `${(n / 1024).toFixed(0)} KiB`;
  console.log(
    `precompressed ${results.length} files in ${dir} (${((Date.now() - started) / 1000).toFixed(1)} s): ` +
      `${kib(total('size'))} -> br ${kib(total('br'))}, gzip ${kib(total('gz'))}`,
  );
}
