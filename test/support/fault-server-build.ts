/**
 * The server (`src/server.ts`) and the no-internet guard as plain JavaScript, built once per
 * run by scripts/build.mjs's esbuild command (production's build) into the run's folder:
 * the fault tests run it (fault-server.ts), the Docker image test copies it. A module of its
 * own, so that a test needing only the build does not load the app (test/helpers/build.ts).
 */
import { execFile } from 'node:child_process';
import { symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { oncePerRun } from './run-once.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** What builtServer() adds to the server's build, for running it from the run's folder. */
export const BUILT_SERVER_EXTRAS = ['no-internet.js', 'package.json', 'node_modules'] as const;

/**
 * The built folder (shared: treat it as read-only). It reaches the project's packages
 * through a `node_modules` link and marks its files as ES modules with a package.json of its
 * own (BUILT_SERVER_EXTRAS).
 */
export function builtServer(): Promise<string> {
  return oncePerRun('server-build', async (dir) => {
    const run = promisify(execFile);
    await run(process.execPath, ['scripts/build.mjs', `--server-into=${dir}`], { cwd: ROOT });
    await run(
      path.join(ROOT, 'node_modules/.bin/esbuild'),
      ['test/setup/no-internet.ts', `--outfile=${path.join(dir, 'no-internet.js')}`, '--platform=node', '--format=esm'],
      { cwd: ROOT },
    );
    await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
    await symlink(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  });
}
