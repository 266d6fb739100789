/**
 * Work done once per test run, whichever file (in whichever worker) needs it first; the
 * others wait for it and share the result. The run's folder comes from test/setup/run-dir.ts.
 *
 *   const dir = await oncePerRun('web-build', (into) => buildInto(into));
 *
 * The first caller takes a lock (an atomic mkdir), does the work into a folder of its own
 * and then writes a marker file; every other caller waits for the marker to appear (a file
 * system event, not a clock). A failure is written to the marker too, so the waiters fail
 * with its message instead of hanging.
 */
import { existsSync, watch } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { inject } from 'vitest';

type Marker = { ok: true } | { error: string };

/** Resolves once `file` exists (its folder must exist). */
export async function fileAppears(file: string): Promise<void> {
  if (existsSync(file)) return;
  await new Promise<void>((resolve) => {
    const watcher = watch(path.dirname(file), () => {
      if (existsSync(file)) {
        watcher.close();
        resolve();
      }
    });
    // It may have appeared between the first check and the watch.
    if (existsSync(file)) {
      watcher.close();
      resolve();
    }
  });
}

/** Runs `work(dir)` once per run under `name` and returns `dir` (shared: treat it as read-only). */
export async function oncePerRun(name: string, work: (dir: string) => Promise<void>): Promise<string> {
  const runDir = inject('runDir');
  if (!runDir) throw new Error('no run folder: vitest.config.ts must list test/setup/run-dir.ts');
  const dir = path.join(runDir, name);
  const marker = path.join(runDir, `${name}.done.json`);
  let mine = true;
  try {
    await mkdir(`${dir}.lock`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    mine = false;
  }
  if (mine) {
    let answer: Marker;
    try {
      await mkdir(dir, { recursive: true });
      await work(dir);
      answer = { ok: true };
    } catch (err) {
      answer = { error: err instanceof Error ? (err.stack ?? err.message) : String(err) };
    }
    await writeFile(`${marker}.part`, JSON.stringify(answer));
    await rename(`${marker}.part`, marker);
  }
  await fileAppears(marker);
  const answer = JSON.parse(await readFile(marker, 'utf8')) as Marker;
  if ('error' in answer) throw new Error(`${name}, done once for the run, failed:\n${answer.error}`);
  return dir;
}
