import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { HeaderThread, headerThreadsFor } from '../../../src/services/photos/header-reader.js';
import { tempDir } from '../../helpers/build.js';
import { makeImage } from '../../support/photos-fixtures.js';

describe('header thread', () => {
  test('reads new files, skips known unchanged ones, reports missing and unreadable ones', async (t) => {
    const dir = await tempDir(t);
    const good = path.join(dir, 'good.jpg');
    await writeFile(good, await makeImage({ width: 41, height: 29, takenAt: '2026:07:03 10:11:12' }));
    const known = path.join(dir, 'known.jpg');
    await writeFile(known, await makeImage());
    const bad = path.join(dir, 'bad.jpg');
    await writeFile(bad, 'not an image');
    await mkdir(path.join(dir, 'folder.jpg'));
    const k = await stat(known);

    const thread = HeaderThread.start();
    t.onTestFinished(() => thread.stop());
    const results = await thread.read([
      { file: good, knownSize: -1, knownMtimeMs: -1 },
      { file: known, knownSize: k.size, knownMtimeMs: k.mtimeMs },
      { file: known, knownSize: k.size + 1, knownMtimeMs: k.mtimeMs }, // changed: read again
      { file: bad, knownSize: -1, knownMtimeMs: -1 },
      { file: path.join(dir, 'missing.jpg'), knownSize: -1, knownMtimeMs: -1 },
      { file: path.join(dir, 'folder.jpg'), knownSize: -1, knownMtimeMs: -1 },
    ]);
    const g = await stat(good);
    expect(results).toEqual([
      {
        kind: 'read',
        size: g.size,
        mtimeMs: g.mtimeMs,
        width: 41,
        height: 29,
        takenAtMs: Date.parse('2026-07-03T10:11:12Z'),
      },
      { kind: 'same' },
      expect.objectContaining({ kind: 'read', size: k.size, width: 48, height: 32 }),
      expect.objectContaining({ kind: 'failed', size: 12, error: expect.any(String) }),
      { kind: 'gone' },
      { kind: 'gone' },
    ]);
  });

  test('chunks are answered in order; after stop() a read is refused, not left waiting', async () => {
    const thread = HeaderThread.start();
    const replies = await Promise.all(
      [1, 2, 3].map((n) => thread.read([{ file: `/nonexistent/${n}.jpg`, knownSize: -1, knownMtimeMs: -1 }])),
    );
    expect(replies).toEqual([[{ kind: 'gone' }], [{ kind: 'gone' }], [{ kind: 'gone' }]]);
    await thread.stop();
    await expect(thread.read([])).rejects.toThrow(/stopped/);
  });

  test('one thread per spare core, at most three', () => {
    expect([1, 2, 4, 16].map((cores) => headerThreadsFor(cores))).toEqual([0, 1, 3, 3]);
  });
});
