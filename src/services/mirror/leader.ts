/**
 * Which process mirrors (docs/contract.md, "System of record and the spreadsheet mirror"):
 * with PostgreSQL and several processes, the one holding a session-level advisory lock on a
 * connection of its own. When that process dies its connection closes and PostgreSQL frees
 * the lock; another process's next try takes it. With SQLite there is one process.
 */
import pg from 'pg';
import type { Logger } from '../../lib/logger.js';

export interface Leader {
  /** Tries to be the mirroring process (cheap when it is already). */
  acquire(): Promise<boolean>;
  readonly held: boolean;
  release(): Promise<void>;
}

/** Any constant unique to this app: the mirror's advisory lock key. */
const MIRROR_LOCK_KEY = 7_424_218_012;

export function soleLeader(): Leader {
  return {
    held: true,
    async acquire() {
      return true;
    },
    async release() {},
  };
}

export class PostgresLeader implements Leader {
  private client: pg.Client | null = null;
  held = false;

  constructor(
    private readonly connectionString: string,
    private readonly log: Logger,
  ) {}

  async acquire(): Promise<boolean> {
    if (this.held) return true;
    try {
      if (!this.client) {
        const client = new pg.Client({ connectionString: this.connectionString });
        client.on('error', (err) => {
          this.log.warn({ err: err.message }, 'mirror: lost the connection holding the mirror lock');
          this.drop(client);
        });
        client.on('end', () => this.drop(client));
        await client.connect();
        this.client = client;
      }
      const res = await this.client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [MIRROR_LOCK_KEY]);
      this.held = res.rows[0]?.ok === true;
      if (this.held) this.log.info({}, 'mirror: this process mirrors the spreadsheet');
      return this.held;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, 'mirror: could not try the mirror lock');
      if (this.client) this.drop(this.client);
      return false;
    }
  }

  private drop(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = null;
    this.held = false;
    client.end().catch(() => {});
  }

  async release(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.held = false;
    if (client) await client.end().catch(() => {});
  }
}
