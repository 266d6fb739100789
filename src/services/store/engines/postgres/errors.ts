/**
 * Which PostgreSQL / socket errors mean "the database can't be reached right now"
 * (→ AppError STORE_UNAVAILABLE, 503), as opposed to bugs (→ 500).
 */
import { appError, isAppError } from '../../../../errors/catalogue.js';
import { storeUnavailable } from '../../errors.js';

const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENETDOWN',
]);

/**
 * SQLSTATE classes and codes: 08 connection exception, 53 insufficient resources (too many
 * connections, disk full), 57P0x shutdown / cannot connect now, 58 system error, 28 bad
 * credentials, 3D000 unknown database, 25006 read-only transaction (a standby after failover).
 */
const SQLSTATE = /^(08|53|57P0|58|28|3D000|25006|57014)/;

const MESSAGES =
  /Connection terminated|connection error and is not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end|Client was closed|Query read timeout|not queryable/i;

export function isUnavailable(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (SOCKET_CODES.has(code) || SQLSTATE.test(code))) return true;
  if (err instanceof AggregateError) return err.errors.some(isUnavailable);
  return MESSAGES.test((err as Error).message ?? '');
}

/** Text PostgreSQL can't store (NUL characters): the input's fault, not the server's. */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

export function mapPgError(err: unknown): unknown {
  if (isAppError(err)) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === '23505') {
    // "Key (prefix, seq)=(AX25, 3) already exists." → uniqueColumns "prefix,seq", as SQLite's are named.
    const columns = /^Key \(([^)]*)\)=/.exec((err as { detail?: string }).detail ?? '')?.[1] ?? '';
    return Object.assign(err as Error, { uniqueColumns: columns.replace(/\s+/g, '') });
  }
  if (typeof code === 'string' && UNSTORABLE_TEXT.has(code)) {
    return appError('VALIDATION_FAILED', {
      message: 'The text contains characters that cannot be stored (such as NUL)',
      cause: err,
    });
  }
  if (isUnavailable(err)) {
    return storeUnavailable('The order database is unreachable', err);
  }
  return err;
}
