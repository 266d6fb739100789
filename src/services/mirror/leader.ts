/**
 * Which process mirrors (docs/contract.md, "System of record and the spreadsheet mirror"):
 * with PostgreSQL and several processes, the one holding a session-level advisory lock on a
 * connection of its own. When that process dies its connection closes and PostgreSQL frees
 * the lock; another process's next try takes it. With SQLite there is one process.
 */

import type { Logger } from '../../lib/logger.js';
import { PostgresAdvisoryLock } from '../store/engines/postgres/advisory-lock.js';

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

/** The mirror's lock (store/engines/postgres/advisory-lock.ts). */
export class PostgresLeader extends PostgresAdvisoryLock implements Leader {
  constructor(connectionString: string, log: Logger) {
    super(connectionString, MIRROR_LOCK_KEY, log, {
      held: 'mirror: this process mirrors the spreadsheet',
      lost: 'mirror: lost the connection holding the mirror lock',
      failed: 'mirror: could not try the mirror lock',
    });
  }
}
