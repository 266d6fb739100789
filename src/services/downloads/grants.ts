/**
 * Whether a signed download link may be used now (docs/contract.md, "Selling"): the order
 * is paid, the line is a digital file, and fewer than DOWNLOAD_MAX downloads of that line
 * have been made. `check` looks; `take` looks again and counts one download, in one step.
 *
 * The interim implementation reads the order through the order store's `getOrder` and
 * counts in memory: a restart resets the counts and several instances count apart. The
 * counts move into the order store (one counter per order line, taken atomically) with the
 * store's download fields; that implementation replaces this behind the same interface.
 */
import { isDigitalSize } from '../../domain/offers.js';
import type { OrderRecord } from '../../domain/order.js';

export type DownloadGrant = { orderId: string; line: number };

export type GrantRefusal = 'unknownOrder' | 'notPaid' | 'notDigital' | 'usedUp';

export type GrantCheck =
  | { ok: true; eventSlug: string; photoNumber: string; used: number; max: number }
  | { ok: false; reason: GrantRefusal };

export interface DownloadGrants {
  check(grant: DownloadGrant): Promise<GrantCheck>;
  /** As check, and counts one download when it passes. */
  take(grant: DownloadGrant): Promise<GrantCheck>;
}

export function createMemoryGrants(deps: {
  getOrder: (id: string) => Promise<OrderRecord | null>;
  max: number;
}): DownloadGrants {
  const used = new Map<string, number>();
  const keyOf = (g: DownloadGrant) => `${g.orderId}#${g.line}`;

  async function check(grant: DownloadGrant): Promise<GrantCheck> {
    const order = await deps.getOrder(grant.orderId);
    if (!order) return { ok: false, reason: 'unknownOrder' };
    if (order.status !== 'paid') return { ok: false, reason: 'notPaid' };
    const line = order.items[grant.line - 1];
    if (!line || !isDigitalSize(line.size)) return { ok: false, reason: 'notDigital' };
    const count = used.get(keyOf(grant)) ?? 0;
    if (count >= deps.max) return { ok: false, reason: 'usedUp' };
    return { ok: true, eventSlug: order.eventSlug, photoNumber: line.photoNumber, used: count, max: deps.max };
  }

  return {
    check,
    async take(grant) {
      const result = await check(grant);
      if (!result.ok) return result;
      // No await between the check of the count above and this write: one step for the event loop.
      const count = used.get(keyOf(grant)) ?? 0;
      if (count >= deps.max) return { ok: false, reason: 'usedUp' };
      used.set(keyOf(grant), count + 1);
      return { ...result, used: count + 1 };
    },
  };
}
