/**
 * globalSetup: a temporary folder for this run, shared by every worker and removed at the
 * end: where work done once per run (test/support/run-once.ts: the browser app's build)
 * leaves its result for the other files.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** This run's shared temporary folder. */
    runDir: string;
  }
}

export default async function setup(project: TestProject) {
  const dir = await mkdtemp(path.join(tmpdir(), 'vitest-run-'));
  project.provide('runDir', dir);
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
