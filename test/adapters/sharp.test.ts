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

test('a photo truncated and rewritten in place while it renders: the process lives, every render settles, the next one reads the new bytes', async (t) => {
  const dir = await tempDir(t, 'photo-rewrite-');
  const rounds = 20;
  const child = fork(CHILD, [path.join(dir, 'a.jpg'), String(rounds)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const report = once(child, 'message').then(
    ([m]) => m as { rendered: number; failed: number; garbageRefused: number },
  );
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  // Before the fix this was SIGBUS within a few rounds.
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  const { rendered, failed, garbageRefused } = await report;
  // Every render under the rewrite settled, with a picture or an error (which one depends on
  // how far it got before the truncation: the machine's speed).
  expect(rendered + failed).toBe(rounds * 4);
  // After each rewrite the next render reads the new bytes (garbage here): refused like a
  // damaged photo, never the old picture from a stale mapping.
  expect(garbageRefused).toBe(rounds);
}, 60_000);
