/**
 * src/adapters/sharp.ts reads a photo into memory rather than handing libvips its path:
 * libvips maps a JPEG file, and a file truncated under the mapping kills the process with
 * SIGBUS. A photographer copying a corrected photo over the old one while the server renders
 * it must cost that render, not the server.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/build.js';

const CHILD = fileURLToPath(new URL('../support/photo-rewrite-child.ts', import.meta.url));

test('a photo truncated and rewritten in place while it renders fails those renders; the process lives', async (t) => {
  const dir = await tempDir(t, 'photo-rewrite-');
  const rounds = 20;
  const child = fork(CHILD, [path.join(dir, 'a.jpg'), String(rounds)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const report = once(child, 'message').then(([m]) => m as { rendered: number; failed: number });
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  // Before the fix this was SIGBUS within a few rounds.
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  const { rendered, failed } = await report;
  expect(rendered + failed).toBe(rounds * 4);
  // Renders that read the truncated or garbage bytes failed (as a damaged photo's would).
  expect(failed).toBeGreaterThan(0);
}, 60_000);
