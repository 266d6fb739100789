/**
 * Builds the browser app with the project's own Vite config (the one `npm run build` uses)
 * into a folder of the test's choosing, so the browser tests always run the current sources
 * and never depend on (or overwrite) a dist/web left by someone else.
 */
import { fileURLToPath } from 'node:url';
import { build } from 'vite';

const webConfigFile = fileURLToPath(new URL('../../web/vite.config.ts', import.meta.url));

export async function buildWebApp(outDir: string): Promise<void> {
  await build({
    configFile: webConfigFile,
    build: { outDir, emptyOutDir: true },
    logLevel: 'warn',
  });
}
