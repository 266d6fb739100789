/**
 * Stripe delivers a webhook event at least once, and again after any answer that is not a
 * 2xx: each event id must be acted on once. This ledger runs the handler once per id:
 * a repeat of a handled event is reported as a duplicate, a repeat that arrives while the
 * first is still running waits for it, and a handler that fails forgets the id so Stripe's
 * retry runs it again.
 *
 * Kept in memory for now, bounded to the last MAX_REMEMBERED ids: a restart forgets them,
 * and several instances each keep their own. When the order store keeps processed event
 * ids, it replaces this behind the same `once` (the order transitions it guards are
 * idempotent themselves, so a repeat after a restart does no harm meanwhile).
 */

export const MAX_REMEMBERED = 10_000;

export interface EventLedger {
  once(eventId: string, handle: () => Promise<void>): Promise<{ duplicate: boolean }>;
}

export function createEventLedger(max = MAX_REMEMBERED): EventLedger {
  const done = new Set<string>();
  const running = new Map<string, Promise<void>>();
  return {
    async once(eventId, handle) {
      if (done.has(eventId)) return { duplicate: true };
      const inflight = running.get(eventId);
      if (inflight) {
        await inflight;
        return { duplicate: true };
      }
      const work = handle();
      running.set(eventId, work);
      try {
        await work;
      } finally {
        running.delete(eventId);
      }
      done.add(eventId);
      // A Set iterates in insertion order: the first is the oldest.
      if (done.size > max) done.delete(done.values().next().value as string);
      return { duplicate: false };
    },
  };
}
