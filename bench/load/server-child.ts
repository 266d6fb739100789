/**
 * The server under load, in its own process (forked by bench/load/server.ts): the whole app,
 * compiled, with the configuration from its environment, listening on loopback. It answers `stats`
 * messages with its resident memory, heap, open file descriptors and CPU time (and, with
 * `--expose-gc`, the heap after a full collection), and `mail` with the outbox backlog.
 */
import { readdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { builtApp } from '../lib/built.js';

export type ServerStats = {
  rss: number;
  heapUsed: number;
  /** Memory of Buffers and other objects outside the JS heap (this thread's). */
  external: number;
  /** heapUsed right after a full GC (only with --expose-gc). */
  heapAfterGc?: number;
  /** Open file descriptors (Linux). */
  fds?: number;
  cpuUs: number;
  /** Mail jobs waiting in the outbox. */
  pendingMail: number;
};

export type ChildMessage = { kind: 'listening'; port: number } | { kind: 'stats'; stats: ServerStats };

function openFds(): number | undefined {
  try {
    return readdirSync('/proc/self/fd').length;
  } catch {
    return undefined;
  }
}

// The compiled server (dist/), as `npm start` runs it (bench/lib/built.ts says why not src/).
const { buildApp, loadConfig } = await builtApp();
const config = loadConfig(process.env);
const app = await buildApp(config, { level: config.LOG_LEVEL });
await app.listen({ host: '127.0.0.1', port: 0 });
await app.photos.ready();
// The last evening of a convention: the library's photos were inspected when they arrived
// (photo codes read, thumbnails made). A fresh bench library would otherwise be inspected
// during the run and measure intake (bench/intake.bench.ts does that), not the evening.
for (;;) {
  const intake = app.photos.intake();
  if (intake.pending === 0 && intake.inspecting === 0) break;
  await new Promise((resolve) => setTimeout(resolve, 100));
}
process.send?.({ kind: 'listening', port: (app.server.address() as AddressInfo).port } satisfies ChildMessage);

process.on('message', async (m) => {
  if (m !== 'stats') return;
  const gc = (globalThis as { gc?: () => void }).gc;
  let heapAfterGc: number | undefined;
  if (gc) {
    gc();
    heapAfterGc = process.memoryUsage().heapUsed;
  }
  const mem = process.memoryUsage();
  const { user, system } = process.cpuUsage();
  process.send?.({
    kind: 'stats',
    stats: {
      rss: mem.rss,
      heapUsed: mem.heapUsed,
      external: mem.external,
      heapAfterGc,
      fds: openFds(),
      cpuUs: user + system,
      pendingMail: await app.store.outbox.pendingCount(),
    },
  } satisfies ChildMessage);
});

process.on('SIGTERM', () => {
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});
