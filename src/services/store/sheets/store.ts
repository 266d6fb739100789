/**
 * The Google Sheets order store: orders are rows of the operators' spreadsheet (layout.ts),
 * everything else lives in a local SQLite side store (side-store.ts).
 *
 * - One process owns the sheet (SPEC §10: PostgreSQL is for several). Order numbers come
 *   from in-process counters per prefix, started from (and kept at least at) the highest
 *   number seen in the sheet, so they are unique and consecutive under any concurrency here.
 * - Creates are queued and flushed as one `values.append` per batch: while one append is
 *   in flight the next batch gathers, so 50 concurrent creates cost two or three write
 *   calls instead of 50 (quota: 300 writes/min/project).
 * - Updates run under a per-order lock: read the row (at the row the id was last seen;
 *   the whole tab when it moved), check the rule (rules.ts / transitions.ts), write only
 *   the cells that change. Appends take an exclusive lock against these row writes because
 *   an inserted row shifts the rows below it.
 * - Reads go to the sheet every time (the cached wrapper in front spares the quota);
 *   concurrent full reads share one call unless a write finished in between.
 */
import type { Config } from '../../../config/env.js';
import { ConfigError } from '../../../config/env.js';
import { NewOrder, type OrderRecord, type SalesSummaryCents } from '../../../domain/order.js';
import { appError } from '../../../errors/catalogue.js';
import type { StoreLogger } from '../logger.js';
import type {
  EventSettings,
  EventSettingsPatch,
  IdempotencyRecord,
  MailJob,
  MailJobInput,
  OrderListQuery,
  OrderPatch,
  OrderStore,
  PushSubscriptionRecord,
  ShippingPatch,
  StoreHealth,
  UpdateResult,
} from '../port.js';
import {
  type Applied,
  applyFeedback,
  applyHoldExpiry,
  applyOrderPatch,
  applyRelease,
  applyShipping,
  buildMailJobs,
  buildNewOrder,
  duplicateOrderId,
  newOrderId,
  orderNotFound,
  refKeys,
  summaryFromOrders,
} from '../rules.js';
import { createSheetsApi, loadServiceAccount, openFailure } from './client.js';
import { changedKeys, MAX_CELL_CHARS, oversizedCell, toCells } from './layout.js';
import { KeyedMutex, ReadWriteLock } from './locks.js';
import { OrderSheet, type RowProblem, type SheetRow, type Snapshot } from './order-sheet.js';
import { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
import { SideStore } from './side-store.js';

export type SheetsStoreOptions = {
  /** Backoff of retried calls (tests shorten it). */
  retry?: Partial<RetryPolicy>;
  /** Per-call timeout, ms (default 20 s). */
  timeoutMs?: number;
  /** Most rows in one append (default 500). */
  maxBatch?: number;
  /** A health check reuses any successful call this recent instead of calling (default 15 s). */
  healthFreshMs?: number;
  /** Mail awaiting an order write older than this is checked against the sheet (default 60 s). */
  awaitingMailCheckMs?: number;
};

type QueuedCreate = {
  input: NewOrder;
  id: string;
  jobs: MailJob[];
  resolve: (order: OrderRecord) => void;
  reject: (err: unknown) => void;
};

type Ref = ReturnType<typeof refKeys>;

const matches = (o: OrderRecord, k: Ref) => o.id === k.id || o.id === k.idLower || o.orderNumber === k.orderNumber;

function findIn(snap: Snapshot, k: Ref): SheetRow | undefined {
  return snap.byId.get(k.id) ?? snap.byId.get(k.idLower) ?? snap.byNumber.get(k.orderNumber);
}

/** Creation order, newest first: createdAt, then the row (appends go below). */
function newestFirst(a: SheetRow, b: SheetRow): number {
  if (a.order.createdAt !== b.order.createdAt) return a.order.createdAt < b.order.createdAt ? 1 : -1;
  return b.row - a.row;
}

/** A value no spreadsheet cell can hold is refused before anything is written. */
function checkCellSizes(order: OrderRecord): void {
  const key = oversizedCell(toCells(order));
  if (key) {
    throw appError('VALIDATION_FAILED', {
      message: `The order's ${key} would exceed what a spreadsheet cell holds (${MAX_CELL_CHARS} characters)`,
      details: { field: key, limit: MAX_CELL_CHARS },
    });
  }
}

export class SheetsOrderStore implements OrderStore {
  readonly kind = 'sheets' as const;
  private readonly config: Config;
  private readonly log: StoreLogger;
  private readonly retry: RetryPolicy;
  private readonly opts: SheetsStoreOptions;
  private sheetOrNull: OrderSheet | undefined;
  private sideOrNull: SideStore | undefined;
  private closed = false;

  /** Hints: where an id was last seen, and which id an order number belongs to. */
  private readonly rowById = new Map<string, number>();
  private readonly idByNumber = new Map<string, string>();
  /** Every id seen in the sheet or given to a create here (a failed create's too: never reused). */
  private readonly takenIds = new Set<string>();
  /** Last sequence issued per prefix. */
  private readonly sequences = new Map<string, number>();
  private problems: { unreadable: RowProblem[]; duplicates: RowProblem[] } = { unreadable: [], duplicates: [] };
  private readonly reported = new Set<string>();
  private rowCount = 0;

  /** Bumped when a write finishes: a full read started before it may not serve later callers. */
  private writeGen = 0;
  private inflightRead: { gen: number; promise: Promise<Snapshot> } | undefined;

  private readonly orderLocks = new KeyedMutex();
  private readonly layoutLock = new ReadWriteLock();
  private readonly queue: QueuedCreate[] = [];
  private flushing = false;
  private idleWaiters: (() => void)[] = [];
  private lastMailCheck = 0;

  constructor(config: Config, log: StoreLogger, opts: SheetsStoreOptions = {}) {
    this.config = config;
    this.log = log;
    this.opts = opts;
    this.retry = { ...DEFAULT_RETRY, ...opts.retry };
  }

  private get sheet(): OrderSheet {
    if (!this.sheetOrNull || this.closed)
      throw appError('STORE_UNAVAILABLE', { message: 'The order store is not open' });
    return this.sheetOrNull;
  }

  private get side(): SideStore {
    if (!this.sideOrNull || this.closed)
      throw appError('STORE_UNAVAILABLE', { message: 'The order store is not open' });
    return this.sideOrNull;
  }

  // ------------------------------------------------------------ life cycle

  async init(): Promise<void> {
    if (this.sheetOrNull) return;
    const spreadsheetId = this.config.GOOGLE_SHEETS_ID;
    const keyFile = this.config.GOOGLE_APPLICATION_CREDENTIALS;
    if (!spreadsheetId) throw new ConfigError('GOOGLE_SHEETS_ID: required when ORDER_STORE=sheets');
    if (!keyFile) throw new ConfigError('GOOGLE_APPLICATION_CREDENTIALS: required when ORDER_STORE=sheets');
    const account = await loadServiceAccount(keyFile);
    const api = createSheetsApi(account, {
      ...(this.config.GOOGLE_SHEETS_ROOT_URL ? { rootUrl: this.config.GOOGLE_SHEETS_ROOT_URL } : {}),
      timeoutMs: this.opts.timeoutMs ?? 20_000,
    });
    const sheet = new OrderSheet({
      api,
      spreadsheetId,
      tab: this.config.GOOGLE_SHEETS_TAB,
      retry: this.retry,
      log: this.log,
    });
    try {
      // Start-up fails fast: a few tries, then a message naming the variable to fix.
      await sheet.open({ ...this.retry, attempts: Math.min(3, this.retry.attempts) });
    } catch (err) {
      throw openFailure(err, { spreadsheetId, email: account.email, rootUrl: this.config.GOOGLE_SHEETS_ROOT_URL });
    }
    const side = SideStore.open(this.config.dataDir);
    this.sheetOrNull = sheet;
    this.sideOrNull = side;
    this.closed = false;
    try {
      const snap = await this.readAll();
      // Nothing of ours is in flight yet: every awaiting mail job can be decided now.
      this.settleAwaitingMail(snap, 0);
    } catch (err) {
      this.sheetOrNull = undefined;
      this.sideOrNull = undefined;
      side.close();
      throw err;
    }
    this.log.info(
      { spreadsheetId, tab: sheet.tab, orders: this.rowCount, unreadableRows: this.problems.unreadable.length },
      'order store: Google Sheets ready',
    );
  }

  async close(): Promise<void> {
    if (this.closed || !this.sheetOrNull) return;
    await this.idle();
    this.closed = true;
    this.sideOrNull?.close();
  }

  async health(): Promise<StoreHealth> {
    const details: Record<string, unknown> = {
      backend: 'sheets',
      spreadsheetId: this.config.GOOGLE_SHEETS_ID,
      tab: this.config.GOOGLE_SHEETS_TAB,
      orders: this.rowCount,
      unreadableRows: this.problems.unreadable.slice(0, 50),
      unreadableCount: this.problems.unreadable.length,
      duplicateRows: this.problems.duplicates.slice(0, 50),
      queuedCreates: this.queue.length,
    };
    try {
      details.pendingMail = this.side.pendingMailCount();
      const sheet = this.sheet;
      if (Date.now() - sheet.lastOkAt > (this.opts.healthFreshMs ?? 15_000)) await sheet.ping();
      return { ok: true, details };
    } catch (err) {
      return { ok: false, details: { ...details, error: (err as Error).message } };
    }
  }

  /** Resolves once no create is queued or being written. */
  private idle(): Promise<void> {
    if (!this.flushing && this.queue.length === 0) return Promise.resolve();
    return new Promise((r) => this.idleWaiters.push(r));
  }

  // ------------------------------------------------------------ reading

  /** A full read of the tab; concurrent callers share one call unless a write finished meanwhile. */
  private readAll(): Promise<Snapshot> {
    if (this.inflightRead && this.inflightRead.gen === this.writeGen) return this.inflightRead.promise;
    const sheet = this.sheet;
    const promise = sheet.readAll().then((snap) => {
      this.absorb(snap);
      return snap;
    });
    const entry = { gen: this.writeGen, promise };
    this.inflightRead = entry;
    const clear = () => {
      if (this.inflightRead === entry) this.inflightRead = undefined;
    };
    promise.then(clear, clear);
    return promise;
  }

  /** Learns rows, numbers and problems from a full read. */
  private absorb(snap: Snapshot): void {
    for (const { row, order } of snap.orders) {
      this.takenIds.add(order.id);
      this.rowById.set(order.id, row);
      this.idByNumber.set(order.orderNumber, order.id);
    }
    for (const [prefix, max] of snap.maxSequence) {
      if (max > (this.sequences.get(prefix) ?? 0)) this.sequences.set(prefix, max);
    }
    this.rowCount = snap.orders.length;
    this.problems = { unreadable: snap.unreadable, duplicates: snap.duplicates };
    for (const p of [...snap.unreadable, ...snap.duplicates]) {
      const key = `${p.row}\u0000${p.reason}`;
      if (this.reported.has(key)) continue;
      this.reported.add(key);
      this.log.warn(
        { tab: this.config.GOOGLE_SHEETS_TAB, row: p.row, reason: p.reason },
        'sheets: row skipped (left as is)',
      );
    }
  }

  /** `row` 0: written, but where is not known (the next lookup reads the whole tab). */
  private noteWritten(order: OrderRecord, row: number): void {
    if (row > 0) this.rowById.set(order.id, row);
    else this.rowById.delete(order.id);
    this.idByNumber.set(order.orderNumber, order.id);
    this.writeGen += 1;
  }

  /** The id the hints give for a ref (no call), if any. */
  private hintedId(k: Ref): string | undefined {
    if (this.rowById.has(k.id)) return k.id;
    if (this.rowById.has(k.idLower)) return k.idLower;
    return this.idByNumber.get(k.orderNumber);
  }

  /**
   * The order a ref names, read fresh, with its row: one small read at the row the hints
   * point to when it still holds that order, else one full read of the tab.
   */
  private async find(ref: string): Promise<SheetRow | null> {
    const k = refKeys(ref);
    const id = this.hintedId(k);
    const row = id === undefined ? undefined : this.rowById.get(id);
    if (id !== undefined && row !== undefined) {
      const order = await this.sheet.readRow(row);
      if (order && order.id === id && matches(order, k)) return { row, order };
    }
    return findIn(await this.readAll(), k) ?? null;
  }

  async getOrder(ref: string): Promise<OrderRecord | null> {
    return (await this.find(ref))?.order ?? null;
  }

  async listOrders(query: OrderListQuery = {}): Promise<OrderRecord[]> {
    if (query.statuses && query.statuses.length === 0) return [];
    const statuses = query.statuses ? new Set(query.statuses) : undefined;
    const snap = await this.readAll();
    return snap.orders
      .filter(
        ({ order: o }) =>
          (query.includeHeld || !o.held) &&
          (!statuses || statuses.has(o.status)) &&
          (query.eventSlug === undefined || o.eventSlug === query.eventSlug),
      )
      .sort(newestFirst)
      .map((r) => r.order);
  }

  async summary(query: { eventSlug?: string } = {}): Promise<SalesSummaryCents> {
    const snap = await this.readAll();
    return summaryFromOrders(
      snap.orders.map((r) => r.order).filter((o) => query.eventSlug === undefined || o.eventSlug === query.eventSlug),
    );
  }

  // ------------------------------------------------------------ creating

  async createOrder(input: NewOrder, opts?: { mail?: MailJobInput[] }): Promise<OrderRecord> {
    if (!this.sheetOrNull || this.closed)
      throw appError('STORE_UNAVAILABLE', { message: 'The order store is not open' });
    const parsed = NewOrder.parse(input);
    const now = new Date();
    const id = newOrderId(parsed);
    // Everything that can fail on bad input fails here, before a number is used.
    checkCellSizes(buildNewOrder(parsed, 1, now, id));
    // No unique index here: ids in the sheet, written or queued by this process are taken.
    if (this.takenIds.has(id)) throw duplicateOrderId(id);
    const jobs = buildMailJobs(opts?.mail ?? [], now, id);
    this.takenIds.add(id);
    return new Promise((resolve, reject) => {
      this.queue.push({ input: parsed, id, jobs, resolve, reject });
      this.scheduleFlush();
    });
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = true;
    // Let the creates issued in this turn of the event loop join the first batch.
    setImmediate(() => void this.pump());
  }

  private async pump(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.opts.maxBatch ?? 500);
        await this.flush(batch);
      }
    } finally {
      this.flushing = false;
      if (this.queue.length > 0) this.scheduleFlush();
      else for (const wake of this.idleWaiters.splice(0)) wake();
    }
  }

  private nextSequence(prefix: string): number {
    const next = (this.sequences.get(prefix) ?? 0) + 1;
    this.sequences.set(prefix, next);
    return next;
  }

  /** Numbers, mail (awaiting), one append, then mail confirmed and callers answered. */
  private async flush(batch: QueuedCreate[]): Promise<void> {
    const now = new Date();
    const records = batch.map((c) => buildNewOrder(c.input, this.nextSequence(c.input.prefix), now, c.id));
    try {
      this.side.insertMail(
        batch.map((c, i) => ({
          jobs: c.jobs,
          awaiting: { orderId: c.id, updatedAt: (records[i] as OrderRecord).updatedAt },
        })),
      );
      const placed = await this.layoutLock.runExclusive(() => this.sheet.appendOrders(records));
      this.side.confirmMail(batch.flatMap((c) => c.jobs.map((j) => j.id)));
      for (const r of records) this.noteWritten(r, placed.get(r.id) ?? 0);
      batch.forEach((c, i) => {
        c.resolve(records[i] as OrderRecord);
      });
    } catch (err) {
      // The numbers stay used (never reused); mail stays awaiting until the sheet says
      // whether the rows landed.
      this.writeGen += 1;
      for (const c of batch) c.reject(err);
    }
  }

  // ------------------------------------------------------------ updating

  /** Read, check, write the changed cells (and mail, if changed) under the order's lock. */
  private async modify(
    ref: string,
    mail: readonly MailJobInput[] | undefined,
    apply: (order: OrderRecord, now: Date) => Applied,
  ): Promise<UpdateResult> {
    buildMailJobs(mail ?? [], new Date()); // a bad job fails before anything is written
    const k = refKeys(ref);
    let id = this.hintedId(k) ?? findIn(await this.readAll(), k)?.order.id;
    for (let round = 0; id !== undefined; round++) {
      const lockedId: string = id;
      const result = await this.orderLocks.run(lockedId, async () => {
        // Read inside the lock: the check and the write see the same row.
        const current = await this.find(lockedId);
        if (!current || !matches(current.order, k)) return undefined;
        return this.applyAndWrite(current, mail, apply);
      });
      if (result) return result;
      // The hint was stale (the row changed by hand): resolve the ref from a full read once.
      const fresh = round === 0 ? findIn(await this.readAll(), k)?.order.id : undefined;
      id = fresh === lockedId ? undefined : fresh;
    }
    throw orderNotFound(ref);
  }

  private async applyAndWrite(
    current: SheetRow,
    mail: readonly MailJobInput[] | undefined,
    apply: (order: OrderRecord, now: Date) => Applied,
  ): Promise<UpdateResult> {
    const now = new Date();
    const result = apply(current.order, now);
    if (!result.changed) return result;
    checkCellSizes(result.order);
    const jobs = buildMailJobs(mail ?? [], now, current.order.id);
    this.side.insertMail([{ jobs, awaiting: { orderId: current.order.id, updatedAt: result.order.updatedAt } }]);
    try {
      await this.layoutLock.runShared(() =>
        this.sheet.writeCells(current.row, changedKeys(current.order, result.order), toCells(result.order)),
      );
    } finally {
      this.writeGen += 1;
    }
    this.side.confirmMail(jobs.map((j) => j.id));
    this.noteWritten(result.order, current.row);
    return result;
  }

  updateOrder(ref: string, patch: OrderPatch, opts?: { mail?: MailJobInput[] }): Promise<UpdateResult> {
    return this.modify(ref, opts?.mail, (o, now) => applyOrderPatch(o, patch, now));
  }

  setShipping(ref: string, patch: ShippingPatch, opts?: { mail?: MailJobInput[] }): Promise<UpdateResult> {
    return this.modify(ref, opts?.mail, (o, now) => applyShipping(o, patch, now));
  }

  async appendFeedback(ref: string, text: string, at: Date): Promise<OrderRecord> {
    const res = await this.modify(ref, undefined, (o, now) => ({
      order: applyFeedback(o, text, at, now),
      changed: true,
    }));
    return res.order;
  }

  releaseHold(ref: string, opts?: { mail?: MailJobInput[] }): Promise<UpdateResult> {
    return this.modify(ref, opts?.mail, (o, now) => applyRelease(o, now));
  }

  async expireHolds(now: Date): Promise<OrderRecord[]> {
    const lapsed = (o: OrderRecord) =>
      o.held && o.status === 'pending' && o.holdExpiresAt !== null && Date.parse(o.holdExpiresAt) <= now.getTime();
    const due = (await this.readAll()).orders.filter((r) => lapsed(r.order)).sort((a, b) => a.row - b.row);
    const out: OrderRecord[] = [];
    for (const { order } of due) {
      const res = await this.modify(order.id, undefined, (o, at) =>
        lapsed(o) ? { order: applyHoldExpiry(o, at), changed: true } : { order: o, changed: false },
      );
      if (res.changed) out.push(res.order);
    }
    return out;
  }

  // ------------------------------------------------------------ side store

  async getEventSettings(eventSlug: string): Promise<EventSettings | null> {
    return this.side.getEventSettings(eventSlug);
  }

  async listEventSettings(): Promise<EventSettings[]> {
    return this.side.listEventSettings();
  }

  async putEventSettings(eventSlug: string, patch: EventSettingsPatch): Promise<EventSettings> {
    return this.side.putEventSettings(eventSlug, patch, new Date());
  }

  async savePushSubscription(sub: PushSubscriptionRecord): Promise<{ created: boolean }> {
    return this.side.savePushSubscription(sub);
  }

  async listPushSubscriptions(query: { scope: 'admin' } | { orderId: string }): Promise<PushSubscriptionRecord[]> {
    return this.side.listPushSubscriptions(query);
  }

  async deletePushSubscription(endpoint: string): Promise<void> {
    this.side.deletePushSubscription(endpoint);
  }

  async reserveIdempotencyKey(
    rec: Pick<IdempotencyRecord, 'key' | 'fingerprint' | 'createdAt' | 'expiresAt'>,
  ): Promise<{ reserved: true } | { reserved: false; existing: IdempotencyRecord }> {
    return this.side.reserveIdempotencyKey(rec);
  }

  async completeIdempotencyKey(key: string, statusCode: number, responseBody: string): Promise<void> {
    this.side.completeIdempotencyKey(key, statusCode, responseBody);
  }

  async releaseIdempotencyKey(key: string): Promise<void> {
    this.side.releaseIdempotencyKey(key);
  }

  async enqueueMail(inputs: MailJobInput[]): Promise<MailJob[]> {
    const jobs = buildMailJobs(inputs, new Date());
    this.side.insertMail([{ jobs }]);
    return jobs;
  }

  async claimDueMail(now: Date, limit: number, leaseMs: number): Promise<MailJob[]> {
    await this.checkAwaitingMail();
    return this.side.claimDueMail(now, limit, leaseMs);
  }

  async markMailSent(id: string, via: string, at: Date): Promise<void> {
    this.side.markMailSent(id, via, at);
  }

  async markMailFailed(id: string, error: string, nextAttemptAt: Date): Promise<void> {
    this.side.markMailFailed(id, error, nextAttemptAt);
  }

  async pendingMailCount(): Promise<number> {
    return this.side.pendingMailCount();
  }

  // ------------------------------------------------------------ mail awaiting its order write

  /**
   * Mail whose order write failed in an uncertain way waits; now and then (at most once
   * per `awaitingMailCheckMs`) the sheet settles it. Errors leave it for the next time.
   */
  private async checkAwaitingMail(): Promise<void> {
    const every = this.opts.awaitingMailCheckMs ?? 60_000;
    if (Date.now() - this.lastMailCheck < every) return;
    const old = this.side.awaiting().filter((g) => Date.now() - Date.parse(g.createdAt) >= every);
    if (old.length === 0) return;
    this.lastMailCheck = Date.now();
    try {
      this.settleAwaitingMail(await this.readAll(), every);
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'sheets: could not check mail awaiting its order');
    }
  }

  /** Confirms jobs whose write is in the sheet; drops those older than `graceMs` whose write is not. */
  private settleAwaitingMail(snap: Snapshot, graceMs: number): void {
    for (const group of this.side.awaiting()) {
      const found = snap.byId.get(group.orderId);
      if (found && found.order.updatedAt >= group.updatedAt) {
        this.side.confirmMail(group.jobIds);
        this.log.info(
          { orderId: group.orderId, jobs: group.jobIds.length },
          'sheets: mail confirmed after an uncertain write',
        );
      } else if (Date.now() - Date.parse(group.createdAt) >= graceMs) {
        this.side.dropMail(group.jobIds);
        this.log.warn(
          { orderId: group.orderId, jobs: group.jobIds.length },
          'sheets: mail dropped: its order write never landed',
        );
      }
    }
  }
}
