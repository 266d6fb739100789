/**
 * Starts a worker thread from a module next to the caller: the built `.js` file, or, when
 * the sources run as `.ts` (tsx, vitest), a one-line bootstrap that registers tsx in the
 * thread first. Used by the mail thread (services/notifier) and SQLite's checkpoint thread.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** `base` is the caller's `import.meta.url`; `name` the module's name without extension. */
export function startThread(base: string, name: string, options: WorkerOptions = {}): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), options);
  const entry = new URL(`./${name}.ts`, base).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}
