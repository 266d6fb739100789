/**
 * `npm run bench [-- name ...]`: runs every bench/*.bench.ts (or the named ones) in turn,
 * each printing its figures with ratios against a baseline measured in the same run.
 * Loopback only. Each bench exports `default async function (): Promise<void>`.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const wanted = process.argv.slice(2);
const files = (await readdir(here))
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => wanted.length === 0 || wanted.some((w) => f.startsWith(w)))
  .sort();

if (files.length === 0) {
  process.stderr.write(`no bench matches ${wanted.join(', ')}\n`);
  process.exit(1);
}

// A bench that fails is reported and the others still run; the exit code says one failed.
const failed: string[] = [];
for (const file of files) {
  const started = Date.now();
  try {
    const mod = (await import(pathToFileURL(path.join(here, file)).href)) as { default: () => Promise<void> };
    await mod.default();
  } catch (err) {
    failed.push(file);
    process.stdout.write(`  ${file} FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  }
  process.stdout.write(`  (${file} took ${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
}
if (failed.length > 0) {
  process.stdout.write(`\n${failed.length} bench(es) failed: ${failed.join(', ')}\n`);
  process.exitCode = 1;
}
