/**
 * Descriptor exhaustion (docs/contract.md, "Hardening"): idle connections cost an attacker
 * nothing and cost the server a file descriptor each. Past the process's limit, nothing that
 * needs one works any more: images can't be read, the library rescan dies with EMFILE.
 *
 * The real server in a child process whose descriptor limit is low (`prlimit --nofile`),
 * flooded with idle connections well past that limit and kept flooded (each one the server
 * closes is opened again, as an attacker would). Over its connection cap the server closes
 * new connections at once, so descriptors remain for everything else: through a keep-alive
 * connection opened before the flood, /healthz, gallery pages and a freshly rendered
 * thumbnail keep answering, and a photo added meanwhile is found by the rescan.
 */
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../helpers/build.js';
import { serverEnv, startServer } from '../support/fault-server.js';
import { EVENT, writeLibrary } from '../support/orders-fixtures.js';
import { makeImage, writePhoto } from '../support/photos-fixtures.js';
import { waitUntil } from '../support/wait.js';

const LIMIT = 512;
const FLOOD = LIMIT + 200;
/**
 * A connection the server closes sooner than this was refused at its cap: an idle one is closed
 * only by the headers timeout (10 s, src/app.ts), counted from after the client began to
 * connect. The margin is for a loaded machine, which may take seconds to refuse.
 */
const REFUSED_WITHIN_MS = 9_000;

type Answer = { status: number; body: Buffer; type: string | undefined; socket: net.Socket };

test('idle connections past the descriptor limit: pages, images and the rescan keep working', {
  timeout: 120_000,
}, async (t) => {
  const dataDir = await tempDir(t);
  const photos = path.join(dataDir, 'photos');
  await writeLibrary(photos);
  const server = await startServer(t, {
    env: serverEnv(dataDir, { LOG_LEVEL: 'info', LIBRARY_RESCAN_INTERVAL_MS: '300' }),
    launcher: ['prlimit', `--nofile=${LIMIT}:${LIMIT}`, '--'],
  });

  // The honest client: one keep-alive connection, opened before the flood.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  t.onTestFinished(() => agent.destroy());
  const get = (p: string) =>
    new Promise<Answer>((resolve, reject) => {
      // No time limit of its own: an answer that never comes fails on the test's timeout.
      const req = http.get(`${server.url}${p}`, { agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            body: Buffer.concat(chunks),
            type: res.headers['content-type'],
            socket: res.socket,
          }),
        );
      });
      req.on('error', reject);
    });
  const sessionPath = `/event/${encodeURIComponent(EVENT)}/Day%201/Cosplay`;
  const before = await get(sessionPath);
  expect(before.status).toBe(200);
  const honestSocket = before.socket;
  // The cap it announced is below the descriptor limit.
  const cap = server.logs.find((l) => l.msg === 'connection cap') as { maxConnections?: number } | undefined;
  expect(cap?.maxConnections).toBeLessThan(LIMIT);
  const photoCount = () =>
    get(sessionPath).then((a) => (JSON.parse(a.body.toString()) as { photos: unknown[] }).photos);
  const firstPhotos = (await photoCount()) as { thumbnail: string }[];
  expect(firstPhotos).toHaveLength(6);

  // The flood: FLOOD idle connections, each reopened 20 ms after the server closes it.
  let flooding = true;
  let closedAtOnce = 0;
  const open = new Set<net.Socket>();
  const connect = () => {
    if (!flooding) return;
    const socket = net.connect(server.port, '127.0.0.1');
    const started = Date.now();
    open.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => {
      open.delete(socket);
      if (Date.now() - started < REFUSED_WITHIN_MS) closedAtOnce++;
      setTimeout(connect, 20);
    });
  };
  t.onTestFinished(() => {
    flooding = false;
    for (const s of open) s.destroy();
  });
  for (let i = 0; i < FLOOD; i++) connect();
  // Until the server has refused some: it is at its cap (or out of descriptors).
  await waitUntil(
    () => closedAtOnce > 50,
    () => `more than 50 refused connections (${closedAtOnce})`,
  );

  // The honest client is still served, on its own connection.
  const health = await get('/healthz');
  expect(health.status).toBe(200);
  expect(health.socket).toBe(honestSocket);
  expect((await get(sessionPath)).status).toBe(200);
  // A thumbnail rendered now: the original is opened, the result written to the disk cache.
  const thumb = await get(new URL(firstPhotos[5]?.thumbnail ?? '').pathname);
  expect(thumb.status, thumb.body.toString().slice(0, 200)).toBe(200);
  expect(thumb.type).toBe('image/jpeg');
  // A photo added during the flood is found by the rescan (every 300 ms here).
  await writePhoto(photos, [EVENT, 'Day 1', 'Cosplay', 'img0007.jpg'], await makeImage({ width: 24, height: 16 }));
  await waitUntil(async () => (await photoCount()).length === 7, 'the rescan to list the seventh photo');
  expect(open.size).toBeGreaterThan(100); // the flood was still on
  expect((await get('/healthz')).socket).toBe(honestSocket);

  // Flood over: new connections are served again.
  flooding = false;
  for (const s of open) s.destroy();
  const healthz = () =>
    fetch(`${server.url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    );
  await waitUntil(healthz, 'a new connection to be served');
  const starved = server.logs.filter((l) => /EMFILE|too many open files/i.test(JSON.stringify(l)));
  expect(starved.map((l) => l.msg)).toEqual([]);
  expect(server.stderr()).not.toMatch(/EMFILE|too many open files/i);
});
