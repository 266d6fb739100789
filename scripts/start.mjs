/**
 * `npm start`: reads `.env` when there is one (env-file.mjs), builds what changed since the last
 * build (scripts/build.mjs, with a progress line), then runs the server. A restart with nothing
 * changed costs one Node start-up for the check, not three (docs/development.md, "Restarts").
 *
 * On Linux with glibc the server runs in a child process started with glibc's allocator
 * settings, which glibc reads only at a process's start (src/launcher.ts says why and what
 * they save); elsewhere, or when they are set already, in this same process. Production
 * without npm runs `node dist/server.js` and sets them itself (docs/operations.md).
 */
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';
import { loadProjectEnv } from './env-file.mjs';

// A `.env` in the project folder, when there is one (variables set in the environment win).
const envFile = loadProjectEnv(fileURLToPath(new URL('..', import.meta.url)));
if (envFile) process.stdout.write(`Settings read from ${envFile} (variables set in the environment win)\n`);
await build({ ifChanged: true });
const { allocatorEnv, runAsChild } = await import('../dist/launcher.js');
const extra = allocatorEnv(process.env);
if (Object.keys(extra).length === 0) {
  await import('../dist/server.js');
} else {
  const server = fileURLToPath(new URL('../dist/server.js', import.meta.url));
  process.exitCode = await runAsChild(server, { ...process.env, ...extra });
}
