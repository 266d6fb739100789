/**
 * Builds the browser app with the project's own Vite config (the one `npm run build` uses)
 * into a folder of the test's choosing, so the browser tests always run the current sources
 * and never depend on (or overwrite) a dist/web left by someone else. The sources don't
 * change during a run, so it is built once per run (test/support/run-once.ts) and copied.
 * Outside a test run (a bench: `inject` has no run folder there) it is built straight into
 * `outDir`.
 */
import { cp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { oncePerRun } from './run-once.js';

const webConfigFile = fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url));

async function buildInto(dir: string): Promise<void> {
  await build({ configFile: webConfigFile, build: { outDir: dir, emptyOutDir: true }, logLevel: 'warn' });
}

export async function buildWebApp(outDir: string): Promise<void> {
  // Vitest sets VITEST in its workers.
  if (!process.env.VITEST) return buildInto(outDir);
  await cp(await oncePerRun('web-build', buildInto), outDir, { recursive: true });
}
