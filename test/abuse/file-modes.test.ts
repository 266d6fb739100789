/**
 * DATA_DIR holds customer addresses, confirmation links, push secrets and the admin token:
 * everything the server creates there is 0600 (files) or 0700 (folders), and a DATA_DIR an
 * earlier version left readable is closed at start (docs/contract.md, "Hardening").
 *
 * The app runs in this process, as tests build it; the umask it needs is the process's, so
 * the last test checks that closing the app gives the process its own umask back.
 */
import { chmod, lstat, mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { openStore } from '../../src/services/store/store.js';
import { build, tempDir } from '../helpers/build.js';
import { serverEnv, startServer } from '../support/fault-server.js';
import { bodyA, ORDER_TEST_ENV, outbox, writeLibrary } from '../support/orders-fixtures.js';

type Entry = { rel: string; mode: number; kind: 'file' | 'dir' };

/** Every file and folder under `root` (symbolic links not followed), with its permission bits. */
async function walk(root: string, skip: string[] = []): Promise<Entry[]> {
  const out: Entry[] = [];
  async function visit(dir: string): Promise<void> {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (skip.includes(full) || e.isSymbolicLink()) continue;
      // A render written in the background may be renamed into place between readdir and lstat.
      const st = await lstat(full).catch((err: NodeJS.ErrnoException) => {
        if (err.code === 'ENOENT') return undefined;
        throw err;
      });
      if (!st) continue;
      out.push({ rel: path.relative(root, full), mode: st.mode & 0o777, kind: e.isDirectory() ? 'dir' : 'file' });
      if (e.isDirectory()) await visit(full);
    }
  }
  await visit(root);
  return out;
}

const octal = (m: number) => m.toString(8).padStart(4, '0');
const modes = (entries: Entry[]) => Object.fromEntries(entries.map((e) => [e.rel, octal(e.mode)]));
const expected = (entries: Entry[]) =>
  Object.fromEntries(entries.map((e) => [e.rel, e.kind === 'dir' ? '0700' : '0600']));

describe('file modes under DATA_DIR', () => {
  test('what the server creates is 0600 / 0700: the database and its WAL, keys, token, outbox, image cache', {
    timeout: 120_000,
  }, async (t) => {
    const tmp = await tempDir(t);
    const dataDir = path.join(tmp, 'data'); // not there yet: the server makes it
    const photosDir = path.join(tmp, 'photos');
    await writeLibrary(photosDir);
    const umaskBefore = process.umask();
    const app = await build(t, {
      dataDir,
      // No ADMIN_TOKENS, VAPID or ALTCHA keys: the server generates and keeps its own.
      env: { ...ORDER_TEST_ENV, PHOTOS_DIR: photosDir, ADMIN_TOKENS: '' },
    });
    await app.photos.ready();
    const token = (await readFile(path.join(dataDir, 'admin-token'), 'utf8')).trim();
    const admin = { authorization: `Bearer ${token}` };
    // An order taken at the booth (admin credentials, no CAPTCHA) writes the database, its
    // WAL, and a receipt into the outbox.
    const order = await app.inject({ method: 'POST', url: '/api/orders/create', headers: admin, payload: bodyA() });
    expect(order.statusCode, order.body).toBe(201);
    await app.notifier.flush();
    expect((await outbox(dataDir)).length).toBeGreaterThan(0);
    // A thumbnail rendered once is kept in the disk cache.
    const page = await app.inject({ url: '/event/Anime%20Expo/Day%201/Cosplay' });
    const thumb = new URL((page.json() as { photos: { thumbnail: string }[] }).photos[0]?.thumbnail ?? '').pathname;
    expect((await app.inject({ url: thumb })).statusCode).toBe(200);
    // (written to disk after the answer)
    const cached = async () => (await walk(dataDir)).some((e) => e.kind === 'file' && e.rel.startsWith('cache'));
    await expect.poll(cached, { timeout: 60_000 }).toBe(true);

    const dirMode = (await lstat(dataDir)).mode & 0o777;
    const entries = await walk(dataDir);
    const names = entries.map((e) => e.rel);
    for (const must of ['orders.db', 'orders.db-wal', 'orders.db-shm', 'admin-token', 'vapid-keys.json', 'outbox']) {
      expect(names, must).toContain(must);
    }
    expect(names.some((n) => n.startsWith(`outbox${path.sep}`) && n.endsWith('.eml'))).toBe(true);
    expect(octal(dirMode)).toBe('0700');
    expect(modes(entries)).toEqual(expected(entries));

    // Mail queued when the app closes is written while it closes: private too.
    const late = await app.inject({ method: 'POST', url: '/api/orders/create', headers: admin, payload: bodyA() });
    expect(late.statusCode, late.body).toBe(201);
    const emlBefore = (await walk(dataDir)).filter((e) => e.rel.endsWith('.eml')).length;
    await app.close();
    const afterClose = await walk(dataDir);
    expect(afterClose.filter((e) => e.rel.endsWith('.eml')).length).toBeGreaterThan(emlBefore);
    expect(modes(afterClose)).toEqual(expected(afterClose));
    // The umask was the app's while it was open, and is the process's own again.
    expect(process.umask()).toBe(umaskBefore);
  });

  test('a DATA_DIR an earlier version left readable is closed at start; photos and link targets are left alone', async (t) => {
    const tmp = await tempDir(t);
    const dataDir = path.join(tmp, 'data');
    // What an earlier version left behind: a readable folder, database and outbox.
    await mkdir(path.join(dataDir, 'outbox'), { recursive: true, mode: 0o755 });
    await mkdir(path.join(dataDir, 'cache', 'images', 'ab'), { recursive: true, mode: 0o755 });
    const store = await openStore({ engine: 'sqlite', file: path.join(dataDir, 'orders.db') });
    await store.close();
    await writeFile(path.join(dataDir, 'outbox', 'old.eml'), 'Subject: hi\r\n\r\nhello\r\n', { mode: 0o644 });
    await writeFile(path.join(dataDir, 'cache', 'images', 'ab', 'thumb.jpg'), 'x', { mode: 0o644 });
    await writeFile(path.join(dataDir, 'admin-token'), `${'t'.repeat(40)}\n`, { mode: 0o644 });
    for (const dir of ['', 'outbox', 'cache', 'cache/images', 'cache/images/ab']) {
      await chmod(path.join(dataDir, dir), 0o755);
    }
    await chmod(path.join(dataDir, 'orders.db'), 0o644);
    // The operator's photos (PHOTOS_DIR defaults to DATA_DIR/photos) and a file a link points to.
    const photosDir = path.join(dataDir, 'photos');
    await writeLibrary(photosDir);
    await chmod(photosDir, 0o755);
    const outside = path.join(tmp, 'shared.txt');
    await writeFile(outside, 'not the server’s', { mode: 0o644 });
    await symlink(outside, path.join(dataDir, 'link-to-shared'));

    await build(t, { dataDir, env: { ...ORDER_TEST_ENV, ADMIN_TOKENS: '' } });

    expect(octal((await lstat(dataDir)).mode & 0o777)).toBe('0700');
    const entries = await walk(dataDir, [photosDir]);
    expect(entries.map((e) => e.rel)).toEqual(
      expect.arrayContaining([
        'orders.db',
        'admin-token',
        path.join('outbox', 'old.eml'),
        path.join('cache', 'images', 'ab', 'thumb.jpg'),
      ]),
    );
    expect(modes(entries)).toEqual(expected(entries));
    // Not the server's to change: the photo library it reads, and what a link points to.
    expect(octal((await lstat(photosDir)).mode & 0o777)).toBe('0755');
    expect(octal((await lstat(outside)).mode & 0o777)).toBe('0644');
  });

  test('the real server (src/server.ts) makes its files private from the first one', {
    timeout: 180_000,
  }, async (t) => {
    const tmp = await tempDir(t);
    const dataDir = path.join(tmp, 'data');
    const photosDir = path.join(tmp, 'photos');
    await writeLibrary(photosDir);
    const server = await startServer(t, { env: serverEnv(dataDir, { PHOTOS_DIR: photosDir, ADMIN_TOKENS: '' }) });
    const entries = await walk(dataDir);
    expect(entries.map((e) => e.rel)).toEqual(expect.arrayContaining(['orders.db', 'orders.db-wal', 'orders.db-shm']));
    expect(octal((await lstat(dataDir)).mode & 0o777)).toBe('0700');
    expect(modes(entries)).toEqual(expected(entries));
    await server.kill('SIGTERM');
  });
});
