/**
 * `npm run build`: transpiles the server (src/ → dist/, esbuild: one `.js` file per `.ts` file,
 * the folders kept, so that threads and CLIs start from real files in dist/, e.g.
 * dist/services/notifier/mail-thread.js and dist/cli/thumbnails.js) and builds the browser app
 * (web/ → dist/web, `vite build`). esbuild checks no types, in about a second where `tsc` took
 * 24–75 s; `npm run typecheck` (`tsc --noEmit`, part of `npm test`) does.
 *
 * `node scripts/build.mjs [--if-changed] [server] [web]`: both parts unless one is named.
 * `--if-changed` (what `npm start` does first, in scripts/start.mjs) builds only what changed
 * since the last build: it hashes each part's inputs and compares them with the hashes stored
 * in dist/.build-stamp.json, so a restart with nothing changed costs a few milliseconds
 * instead of a full build (docs/development.md, "Restarts"). Plain JavaScript, so it runs
 * without a TypeScript loader.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runWithProgress } from './progress.mjs';

const STAMP = 'dist/.build-stamp.json';
const BIN = 'node_modules/.bin';

/**
 * esbuild's command for the server into `outdir`. Not bundled: each module keeps its own file
 * (the glob is esbuild's, not a shell's). tsconfig.json's target and module settings apply
 * (esbuild reads it). Tests that run the server as a process build a copy of their own with it
 * (`--server-into=DIR`, test/support/fault-server.ts), never touching dist/.
 */
function serverBuildCommand(outdir) {
  return [
    `${BIN}/esbuild`,
    'src/**/*.ts',
    `--outdir=${outdir}`,
    '--outbase=src',
    '--platform=node',
    '--format=esm',
    '--target=node20.19',
    '--sourcemap',
    '--log-level=warning',
  ];
}

/** What each part is built from, and what it builds. */
const parts = {
  server: {
    inputs: ['src', 'tsconfig.json', 'package-lock.json'],
    output: 'dist/server.js',
    label: 'Building the server (TypeScript → dist/)',
    command: serverBuildCommand('dist'),
  },
  web: {
    // The app imports the grid's tile sizes from the server's sources (one list for both).
    inputs: ['web', 'src/domain/tile-sizes.ts', 'package-lock.json'],
    output: 'dist/web/index.html',
    label: 'Building the browser app (web/ → dist/web)',
    command: [`${BIN}/vite`, 'build', 'web', '--logLevel', 'warn'],
  },
};

function filesOf(entry) {
  if (!existsSync(entry)) return [];
  if (!statSync(entry).isDirectory()) return [entry];
  return readdirSync(entry, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => path.join(d.parentPath ?? d.path, d.name))
    .sort();
}

function hashOf(inputs) {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(filesOf)) {
    hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

function readStamp() {
  try {
    return JSON.parse(readFileSync(STAMP, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * Builds the parts named in `only` (all when empty); with `ifChanged`, only those whose
 * inputs changed since the last build. Shows progress while each runs (progress.mjs), against
 * the time the part took the last time (kept in the stamp). Exits the process when a build fails.
 */
export async function build({ ifChanged = false, only = [] } = {}) {
  const stamp = readStamp();
  const durations = stamp.durations ?? {};
  for (const [name, part] of Object.entries(parts)) {
    if (only.length > 0 && !only.includes(name)) continue;
    const hash = hashOf(part.inputs);
    if (ifChanged && stamp[name] === hash && existsSync(part.output)) continue;
    const run = await runWithProgress(part.command[0], part.command.slice(1), {
      label: part.label,
      expectedMs: durations[name],
    });
    if (run.code !== 0) process.exit(run.code ?? 1);
    stamp[name] = hash;
    stamp.durations = { ...durations, [name]: run.ms };
    Object.assign(durations, stamp.durations);
    writeFileSync(STAMP, `${JSON.stringify(stamp, null, 2)}\n`);
    process.stdout.write(`built ${name} (${path.basename(part.command[0])}) in ${(run.ms / 1000).toFixed(1)} s\n`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const into = args.find((a) => a.startsWith('--server-into='));
  if (into) {
    // The server alone into another folder: no stamp, no progress line (a test's build).
    const [command, ...rest] = serverBuildCommand(into.slice('--server-into='.length));
    const run = spawnSync(command, rest, { stdio: 'inherit' });
    process.exit(run.status ?? 1);
  }
  await build({ ifChanged: args.includes('--if-changed'), only: args.filter((a) => a in parts) });
}
