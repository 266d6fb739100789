/**
 * A PostgreSQL session-level advisory lock held on a connection of its own: when the process
 * dies its connection closes and PostgreSQL frees the lock; another process's next try takes
 * it. The mirror's choice of the one process that mirrors (services/mirror/leader.ts).
 */
import type pg from 'pg';
import type { Logger } from '../../../../lib/logger.js';

/** The log lines: the lock taken, the connection holding it lost, a try that failed. */
export type AdvisoryLockNotes = { held: string; lost: string; failed: string };

export class PostgresAdvisoryLock {
  private client: pg.Client | null = null;
  held = false;

  constructor(
    private readonly connectionString: string,
    private readonly key: number,
    private readonly log: Logger,
    private readonly notes: AdvisoryLockNotes,
  ) {}

  async acquire(): Promise<boolean> {
    if (this.held) return true;
    try {
      if (!this.client) {
        // pg is loaded on the first try: a SQLite server, which never tries, never reads it.
        const { default: pgModule } = await import('pg');
        const client = new pgModule.Client({ connectionString: this.connectionString });
        client.on('error', (err) => {
          this.log.warn({ err: err.message }, this.notes.lost);
          this.drop(client);
        });
        client.on('end', () => this.drop(client));
        await client.connect();
        this.client = client;
      }
      const res = await this.client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1) AS ok', [this.key]);
      this.held = res.rows[0]?.ok === true;
      if (this.held) this.log.info({}, this.notes.held);
      return this.held;
    } catch (err) {
      this.log.warn({ err: (err as Error).message }, this.notes.failed);
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
