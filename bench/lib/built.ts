/**
 * The compiled server in `dist/` (what `npm start` runs), for the benches' server children.
 *
 * Why not `src/` through tsx: tsx compiles with esbuild's `keepNames`, which wraps every
 * function expression in a `__name(fn, "name")` call (an Object.defineProperty) each time
 * the closure is made. Code that makes closures per request pays for that on every request,
 * and the production build doesn't: measured on the order submission path, the same app
 * took about 15 % more CPU per request from `src/`. `npm run bench` compiles `dist/` first
 * (package.json), so this is never stale.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const dist = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');

/** `import('dist/<file>')`, typed as the source module it was compiled from. */
export function importBuilt<M>(file: string): Promise<M> {
  return import(pathToFileURL(path.join(dist, file)).href) as Promise<M>;
}

type AppModule = typeof import('../../src/app.js');
type EnvModule = typeof import('../../src/config/env.js');

/** buildApp and loadConfig of the compiled server. */
export async function builtApp(): Promise<{ buildApp: AppModule['buildApp']; loadConfig: EnvModule['loadConfig'] }> {
  const [{ buildApp }, { loadConfig }] = await Promise.all([
    importBuilt<AppModule>('app.js'),
    importBuilt<EnvModule>('config/env.js'),
  ]);
  return { buildApp, loadConfig };
}
