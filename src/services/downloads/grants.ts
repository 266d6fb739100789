/**
 * Whether a signed download link may be used now (docs/contract.md, "Selling"): the order
 * is paid, the line is a digital file, and fewer than DOWNLOAD_MAX downloads of that line
 * have been made before its expiry. `check` looks; `take` counts one download, atomically in
 * the store (ports/download-grants.ts), so the limit holds across processes and restarts.
 */
import { isDigitalSize } from '../../domain/offers.js';
import type { OrderRecord } from '../../domain/order.js';
import type { DownloadGrantsPort } from '../store/ports/download-grants.js';
import type { OrdersPort } from '../store/ports/orders.js';

export type DownloadGrant = { orderId: string; line: number };

export type GrantRefusal = 'unknownOrder' | 'notPaid' | 'notDigital' | 'usedUp' | 'expired';

export type GrantCheck =
  | { ok: true; eventSlug: string; photoNumber: string; used: number; max: number }
  | { ok: false; reason: GrantRefusal };

export interface DownloadGrants {
  check(grant: DownloadGrant): Promise<GrantCheck>;
  /** As check, and counts one download when it passes. */
  take(grant: DownloadGrant): Promise<GrantCheck>;
}

/** When the order became paid (its last move to `paid`), or null when it is not paid. */
export function paidAt(order: Pick<OrderRecord, 'status' | 'history' | 'updatedAt'>): Date | null {
  if (order.status !== 'paid') return null;
  const entry = order.history.findLast((h) => h.action === 'status' && h.to === 'paid');
  return new Date(entry?.at ?? order.updatedAt);
}

export function createStoreGrants(deps: {
  orders: Pick<OrdersPort, 'get'>;
  grants: DownloadGrantsPort;
  max: number;
  ttlDays: number;
  now?: () => Date;
}): DownloadGrants {
  const now = deps.now ?? (() => new Date());

  async function look(grant: DownloadGrant) {
    const order = await deps.orders.get(grant.orderId);
    if (!order) return { ok: false, reason: 'unknownOrder' } as const;
    const paid = paidAt(order);
    if (!paid) return { ok: false, reason: 'notPaid' } as const;
    const line = order.items[grant.line - 1];
    if (!line || !isDigitalSize(line.size)) return { ok: false, reason: 'notDigital' } as const;
    return { ok: true, order, line, expiresAt: new Date(paid.getTime() + deps.ttlDays * 86_400_000) } as const;
  }

  return {
    async check(grant) {
      const found = await look(grant);
      if (!found.ok) return found;
      const used = await deps.grants.used(grant.orderId, grant.line);
      if (used >= deps.max) return { ok: false, reason: 'usedUp' };
      if (found.expiresAt <= now()) return { ok: false, reason: 'expired' };
      return { ok: true, eventSlug: found.order.eventSlug, photoNumber: found.line.photoNumber, used, max: deps.max };
    },
    async take(grant) {
      const found = await look(grant);
      if (!found.ok) return found;
      const taken = await deps.grants.take(grant.orderId, grant.line, {
        max: deps.max,
        expiresAt: found.expiresAt,
        now: now(),
      });
      if (!taken.ok) return { ok: false, reason: taken.reason };
      return {
        ok: true,
        eventSlug: found.order.eventSlug,
        photoNumber: found.line.photoNumber,
        used: taken.used,
        max: deps.max,
      };
    },
  };
}
