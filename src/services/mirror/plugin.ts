/**
 * The spreadsheet mirror, as `fastify.mirror` (docs/mirror.md): on when GOOGLE_SHEETS_ID is
 * set. A worker beside the record that depends on the store's ports only; orders never wait
 * for it and `/readyz` stays 200 whatever the sheet does. The first start against a sheet
 * waits up to MIRROR_IMPORT_WAIT_MS for its orders to be imported, so numbering continues
 * after them.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Leader, PostgresLeader, soleLeader } from './leader.js';
import { OrderTab } from './sheets/order-tab.js';
import { DEFAULT_RETRY } from './sheets/retry.js';
import { type MirrorService, mirrorStatus, offService } from './status.js';
import { MirrorWorker } from './worker.js';

declare module 'fastify' {
  interface FastifyInstance {
    mirror: MirrorService;
  }
}

/** A Sheets call's time limit: an uplink that hangs is a failure like any other. */
const CALL_TIMEOUT_MS = 20_000;

async function mirrorPlugin(fastify: FastifyInstance): Promise<void> {
  const { config, store } = fastify;
  if (!config.GOOGLE_SHEETS_ID) {
    fastify.decorate('mirror', offService());
    return;
  }
  const log = fastify.log.child({ component: 'mirror' });
  // Loaded only with the mirror on: googleapis alone takes about a second to import, a third
  // of a restart (docs/development.md, "Restarts").
  const { createSheetsApi, loadServiceAccount } = await import('./sheets/client.js');
  const account = await loadServiceAccount(config.GOOGLE_APPLICATION_CREDENTIALS ?? '');
  const api = createSheetsApi(account, {
    ...(config.GOOGLE_SHEETS_ROOT_URL ? { rootUrl: config.GOOGLE_SHEETS_ROOT_URL } : {}),
    timeoutMs: CALL_TIMEOUT_MS,
  });
  const tab = new OrderTab({
    api,
    spreadsheetId: config.GOOGLE_SHEETS_ID,
    tab: config.GOOGLE_SHEETS_TAB,
    retry: { ...DEFAULT_RETRY, attempts: 3, maxMs: 2_000 },
    log,
  });
  const leader: Leader =
    store.engine === 'postgres' && config.DATABASE_URL ? new PostgresLeader(config.DATABASE_URL, log) : soleLeader();
  const worker = new MirrorWorker({
    tab,
    store: { mirror: store.mirror, orders: store.orders },
    leader,
    log,
    spreadsheetId: config.GOOGLE_SHEETS_ID,
    serviceAccountEmail: account.email,
    readIntervalMs: config.ORDER_CACHE_TTL_MS,
    flushMs: config.MIRROR_FLUSH_MS,
  });
  const service: MirrorService = {
    enabled: true,
    status: () => mirrorStatus(store.mirror, worker.leading, config.GOOGLE_SHEETS_TAB),
  };
  fastify.decorate('mirror', service);
  fastify.readiness.add('mirror', async () => {
    // Never "not ready": the booth keeps selling while the sheet is away.
    const [state, pending] = await Promise.all([store.mirror.state(), store.mirror.pendingCount()]);
    return { ok: true, details: { pending, lastSyncAt: state.lastSyncAt, lastError: state.lastError } };
  });

  const state = await store.mirror.state();
  if (!state.importedAt && config.MIRROR_IMPORT_WAIT_MS > 0 && (await leader.acquire())) {
    await firstImport(worker, config.MIRROR_IMPORT_WAIT_MS, fastify);
  }
  fastify.addHook('onReady', async () => {
    worker.start();
  });
  fastify.addHook('onClose', async () => {
    await worker.stop();
  });
}

/** The first pass at start-up, given up (and left to the worker) after `waitMs`. */
async function firstImport(worker: MirrorWorker, waitMs: number, fastify: FastifyInstance): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), waitMs);
  });
  const pass = worker.pass().then(
    () => 'done' as const,
    (err: unknown) => err,
  );
  const outcome = await Promise.race([pass, timeout]);
  clearTimeout(timer);
  if (outcome === 'done') return;
  // A pass still under way finishes before the worker's first (passes run one at a time).
  fastify.log.warn(
    { err: outcome === 'timeout' ? 'timed out' : (outcome as Error).message },
    'mirror: the spreadsheet could not be read at the first start; serving anyway (orders it holds are imported when it answers, and a number taken meanwhile is reported)',
  );
}

export default fp(mirrorPlugin, { name: 'mirror', dependencies: ['config', 'readiness', 'store'] });
