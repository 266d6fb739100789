/**
 * The PostgreSQL change feed: one dedicated connection that LISTENs on the channel the
 * schema's triggers NOTIFY (postgres/migrations.ts). A notice arrives when the writing
 * transaction commits, in whichever process made it.
 *
 * If the connection drops, notices may be missed: `coherent` turns false (caches read
 * through), the listener reconnects with backoff, and on success tells subscribers to drop
 * everything (`all`) before `coherent` is true again.
 */
import pg from 'pg';
import type { ChangeFeed, StoreChange } from '../change-feed.js';
import type { StoreLogger } from '../logger.js';
import { CHANGE_CHANNEL } from './migrations.js';

export function parseChange(payload: string | undefined): StoreChange {
  if (payload?.startsWith('order:')) return { kind: 'order', id: payload.slice(6) };
  if (payload?.startsWith('event:')) return { kind: 'event', eventSlug: payload.slice(6) };
  return { kind: 'all' };
}

export class ChangeListener implements ChangeFeed {
  coherent = false;
  private client: pg.Client | undefined;
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private stopped = false;
  private retryMs = 100;
  private timer: NodeJS.Timeout | undefined;
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly clientConfig: pg.ClientConfig,
    private readonly log: StoreLogger,
    private readonly maxRetryMs = 5000,
  ) {}

  subscribe(listener: (change: StoreChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connects and LISTENs; rejects if the first attempt fails (start-up reports it). */
  async start(): Promise<void> {
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.coherent = false;
    const client = this.client;
    this.client = undefined;
    await this.connecting?.catch(() => {});
    await client?.end().catch(() => {});
  }

  private emit(change: StoreChange): void {
    for (const l of this.listeners) {
      try {
        l(change);
      } catch (err) {
        this.log.error({ err }, 'order store: change listener failed');
      }
    }
  }

  private connect(): Promise<void> {
    const attempt = (async () => {
      const client = new pg.Client({ ...this.clientConfig, keepAlive: true });
      client.on('notification', (msg) => {
        if (this.client === client) this.emit(parseChange(msg.payload));
      });
      client.on('error', (err) => this.lost(client, err));
      client.on('end', () => this.lost(client));
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      } catch (err) {
        client.removeAllListeners('end');
        await client.end().catch(() => {});
        throw err;
      }
      if (this.stopped) {
        await client.end().catch(() => {});
        return;
      }
      this.client = client;
      this.retryMs = 100;
      // Whatever changed while nobody listened is unknown: start afresh, then trust the feed.
      this.emit({ kind: 'all' });
      this.coherent = true;
    })();
    this.connecting = attempt;
    return attempt;
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.coherent = false;
    this.emit({ kind: 'all' });
    client.end().catch(() => {});
    if (this.stopped) return;
    this.log.warn({ err: err?.message }, 'order store: change feed lost; caches read through until it is back');
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.connect().then(
        () => this.log.info({}, 'order store: change feed back'),
        () => {
          this.retryMs = Math.min(this.retryMs * 2, this.maxRetryMs);
          this.scheduleReconnect();
        },
      );
    }, this.retryMs);
    this.timer.unref();
  }
}
