/**
 * The header thread's code (started by header-reader.ts): stats files and reads the headers
 * of those that are new or changed, a chunk per message, one file after the other with the
 * synchronous calls (this thread has no event loop to keep free). Chunks are handled in
 * order (answerCalls): the one header buffer is reused from file to file.
 */
import fs from 'node:fs';
import { answerCalls } from '../../lib/thread.js';
import { currentSidecar, readFileVersion } from './file-version.js';
import { HEADER_CHUNK_BYTES } from './header.js';
import type { HeaderResult, HeaderTask } from './header-reader.js';

const buffer = Buffer.allocUnsafe(HEADER_CHUNK_BYTES);

async function readOne(task: HeaderTask): Promise<HeaderResult> {
  let s: fs.Stats;
  try {
    s = fs.statSync(task.file);
  } catch {
    return { kind: 'gone' }; // removed between readdir and stat
  }
  if (!s.isFile()) return { kind: 'gone' };
  if (
    s.size === task.knownSize &&
    s.mtimeMs === task.knownMtimeMs &&
    (!task.withMetadata || (await currentSidecar(task.sidecar, true)) === (task.knownSidecar ?? null))
  ) {
    return { kind: 'same' };
  }
  try {
    const h = await readFileVersion(task.file, buffer, s.size, true, task.withMetadata ?? false, task.sidecar);
    return { kind: 'read', size: s.size, mtimeMs: s.mtimeMs, ...h };
  } catch (err) {
    return { kind: 'failed', size: s.size, mtimeMs: s.mtimeMs, error: (err as Error).message };
  }
}

answerCalls<HeaderTask[], HeaderResult[]>(async (tasks) => {
  const results: HeaderResult[] = [];
  for (const task of tasks) results.push(await readOne(task));
  return results;
});
