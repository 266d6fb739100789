/**
 * lib/data-dir.ts: the private umask held while apps are open (nested), and DATA_DIR made
 * private at start: all of it when it was open to others, its first level when it was not.
 */
import { chmod, lstat, mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { holdPrivateUmask, makeDataDirPrivate } from '../../src/lib/data-dir.js';
import { tempDir } from '../helpers/build.js';

const mode = async (p: string) => ((await lstat(p)).mode & 0o777).toString(8);

describe('holdPrivateUmask', () => {
  test('adds 077 while held; nested holders give the process its umask back when the last lets go', async (t) => {
    const own = process.umask(0o002);
    t.onTestFinished(() => {
      process.umask(own);
    });
    const dir = await tempDir(t);
    const first = holdPrivateUmask();
    const second = holdPrivateUmask();
    expect(process.umask()).toBe(0o077);
    await writeFile(path.join(dir, 'held'), 'x');
    await mkdir(path.join(dir, 'held-dir'));
    expect(await mode(path.join(dir, 'held'))).toBe('600');
    expect(await mode(path.join(dir, 'held-dir'))).toBe('700');
    first();
    first(); // twice is once
    expect(process.umask()).toBe(0o077);
    second();
    expect(process.umask()).toBe(0o002);
    await writeFile(path.join(dir, 'after'), 'x');
    expect(await mode(path.join(dir, 'after'))).toBe('664');
  });
});

describe('makeDataDirPrivate', () => {
  test('creates a missing DATA_DIR 0700', async (t) => {
    const dir = path.join(await tempDir(t), 'a', 'data');
    const report = await makeDataDirPrivate(dir);
    expect(await mode(dir)).toBe('700');
    expect(report.failed).toEqual([]);
  });

  test('an open DATA_DIR: everything under it, except the photo library and link targets', async (t) => {
    const root = await tempDir(t);
    const dir = path.join(root, 'data');
    await mkdir(path.join(dir, 'cache', 'images', 'x'), { recursive: true });
    await mkdir(path.join(dir, 'photos', 'Event'), { recursive: true });
    await writeFile(path.join(dir, 'cache', 'images', 'x', 'a.jpg'), 'x');
    await writeFile(path.join(dir, 'photos', 'Event', 'p.jpg'), 'x');
    await writeFile(path.join(root, 'elsewhere'), 'x');
    await symlink(path.join(root, 'elsewhere'), path.join(dir, 'link'));
    for (const p of ['', 'cache', 'cache/images', 'cache/images/x', 'photos', 'photos/Event']) {
      await chmod(path.join(dir, p), 0o755);
    }
    for (const p of ['data/cache/images/x/a.jpg', 'data/photos/Event/p.jpg', 'elsewhere']) {
      await chmod(path.join(root, p), 0o644);
    }
    const report = await makeDataDirPrivate(dir, { leaveAlone: [path.join(dir, 'photos')] });
    expect(report.walked).toBe('all');
    expect(await mode(dir)).toBe('700');
    expect(await mode(path.join(dir, 'cache', 'images', 'x'))).toBe('700');
    expect(await mode(path.join(dir, 'cache', 'images', 'x', 'a.jpg'))).toBe('600');
    expect(await mode(path.join(dir, 'photos'))).toBe('755');
    expect(await mode(path.join(dir, 'photos', 'Event', 'p.jpg'))).toBe('644');
    expect(await mode(path.join(root, 'elsewhere'))).toBe('644');
    expect(report.tightened).toHaveLength(5);
  });

  test('a private DATA_DIR: only its first level is checked', async (t) => {
    const dir = await tempDir(t); // mkdtemp: 0700
    await mkdir(path.join(dir, 'outbox', 'deep'), { recursive: true });
    await writeFile(path.join(dir, 'orders.db'), 'x');
    await writeFile(path.join(dir, 'outbox', 'deep', 'm.eml'), 'x');
    await chmod(path.join(dir, 'orders.db'), 0o644);
    await chmod(path.join(dir, 'outbox'), 0o755);
    await chmod(path.join(dir, 'outbox', 'deep'), 0o755);
    const report = await makeDataDirPrivate(dir);
    expect(report.walked).toBe('first-level');
    expect(await mode(path.join(dir, 'orders.db'))).toBe('600');
    expect(await mode(path.join(dir, 'outbox'))).toBe('700');
    // deeper: unreachable by others already, and not walked
    expect(await mode(path.join(dir, 'outbox', 'deep'))).toBe('755');
  });
});
