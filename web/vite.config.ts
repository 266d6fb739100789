/**
 * Builds the browser app (web/) into dist/web, which the server serves (src/plugins/web.ts).
 * `npm run build` runs it after tsc; `npm run dev:web` serves it with hot reload and proxies
 * the API to a server started with `npm run dev` on port 3000.
 *
 * JSX goes through Vite's own transformer (oxc) with Preact's automatic runtime, so no
 * Babel preset is needed.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { precompress } from './build/precompress.js';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const apiServer = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: webRoot,
  base: '/',
  publicDir: 'public',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2020',
    // Small chunks and a native modulepreload: no polyfill bytes for browsers that need none.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    chunkSizeWarningLimit: 200,
  },
  worker: { format: 'es' },
  // A test run's build (Vitest sets VITEST) compresses quickly: its .br files are served the
  // same way, and brotli's densest setting cost every `npm test` about 10 s of CPU.
  plugins: [precompress({ brotliQuality: process.env.VITEST ? 5 : 11 })],
  server: {
    proxy: {
      '/api': apiServer,
      // Gallery JSON; browser navigations to /event... stay with the dev server's index.html.
      '/event': {
        target: apiServer,
        bypass: (req) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined),
      },
    },
  },
});
