/**
 * The connection cap (docs/contract.md, "Hardening"). Every connection holds a file
 * descriptor, and so does every photo read, cached image, database file and outgoing request;
 * past the process's limit nothing works (images fail, the rescan dies with EMFILE), and idle
 * connections cost an attacker nothing. So connections over a cap below that limit are closed
 * at once (`server.maxConnections`). The cap is MAX_CONNECTIONS, else the soft limit on open
 * files less a reserve (a quarter: 128 to 1,024) and the database pool; none where the limit
 * can't be read (not Linux).
 */
import { readFileSync } from 'node:fs';

/** The process's soft limit on open files, or undefined when unknown or unlimited. */
export function descriptorLimit(
  readLimits: () => string = () => readFileSync('/proc/self/limits', 'utf8'),
): number | undefined {
  let text: string;
  try {
    text = readLimits();
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  const n = Number(soft);
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Descriptors kept for everything but connections. */
function descriptorReserve(limit: number, databasePoolSize: number): number {
  return Math.min(1024, Math.max(128, Math.floor(limit / 4))) + databasePoolSize;
}

export type ConnectionCap = {
  /** The cap, or undefined for none. */
  max: number | undefined;
  /** The descriptor limit it was derived from (when known). */
  limit: number | undefined;
  source: 'MAX_CONNECTIONS' | 'descriptor limit' | 'none';
  /** A MAX_CONNECTIONS that leaves less than the reserve. */
  aboveSafe: boolean;
};

export function connectionCap(
  config: { MAX_CONNECTIONS?: number | undefined; DATABASE_POOL_SIZE: number },
  limit: number | undefined,
): ConnectionCap {
  const safe =
    limit === undefined
      ? undefined
      : Math.max(Math.floor(limit / 2), limit - descriptorReserve(limit, config.DATABASE_POOL_SIZE));
  if (config.MAX_CONNECTIONS !== undefined) {
    return {
      max: config.MAX_CONNECTIONS,
      limit,
      source: 'MAX_CONNECTIONS',
      aboveSafe: safe !== undefined && config.MAX_CONNECTIONS > safe,
    };
  }
  if (safe === undefined) return { max: undefined, limit, source: 'none', aboveSafe: false };
  return { max: safe, limit, source: 'descriptor limit', aboveSafe: false };
}
