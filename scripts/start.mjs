/**
 * `npm start`: reads `.env` when there is one (env-file.mjs), builds what changed since the last
 * build (scripts/build.mjs, with a progress line), then runs the server in this same process.
 * A restart with nothing changed costs a few milliseconds for the check (docs/development.md,
 * "Restarts").
 *
 * glibc's allocator settings for production (MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_) are
 * the environment's to give: the Docker image sets them, docs/operations.md says how elsewhere.
 */
import { fileURLToPath } from 'node:url';
import { build } from './build.mjs';
import { loadProjectEnv } from './env-file.mjs';

// A `.env` in the project folder, when there is one (variables set in the environment win).
const envFile = loadProjectEnv(fileURLToPath(new URL('..', import.meta.url)));
if (envFile) process.stdout.write(`Settings read from ${envFile} (variables set in the environment win)\n`);
await build({ ifChanged: true });
await import('../dist/server.js');
