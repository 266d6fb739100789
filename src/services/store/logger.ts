import type { Logger } from '../../lib/logger.js';

/**
 * One line, in plain words, for what a start-up's migrations did (each step itself is at debug):
 * a new database made, or an existing one brought up to this version of the server.
 */
export function logMigrated(
  log: Logger,
  where: string,
  from: number,
  steps: readonly { version: number; name: string }[],
): void {
  const last = steps.at(-1);
  if (!last) return;
  if (from === 0) {
    log.info(
      { database: where, version: last.version },
      `order store: a new, empty order database was made (${where})`,
    );
    return;
  }
  log.info(
    { database: where, from, to: last.version, changes: steps.map((s) => s.name) },
    `order store: the order database (${where}) was updated for this version of the server: ${steps.map((s) => s.name).join('; ')}`,
  );
}
