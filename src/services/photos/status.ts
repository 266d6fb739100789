/**
 * Whether an event is open for orders (docs/contract.md, "Events"), as the gallery pages show it;
 * decided by `closedReason` (domain/pricing.ts) like every other answer to the question.
 * Today the settings come from event.json; when admins override them through the order
 * store, the caller passes the merged settings and adds the store's settings generation
 * to its page-cache keys.
 */
import { closedReason } from '../../domain/pricing.js';
import type { EventDefaults } from './types.js';

export type EventSettings = Pick<EventDefaults, 'isArchived' | 'orderingEnabled' | 'deadline'>;

export type EventStatus = {
  isArchived: boolean;
  orderingEnabled: boolean;
  deadline: string | null;
  /** Open for orders: not archived, ordering enabled, and the deadline (if any) still ahead. */
  active: boolean;
  /** Why not open (the first that applies: archived, disabled, deadline); null when active. */
  closedReason: 'archived' | 'disabled' | 'deadline' | null;
};

export function eventStatus(settings: EventSettings, now: number = Date.now()): EventStatus {
  const reason = closedReason(settings, new Date(now));
  return {
    isArchived: settings.isArchived,
    orderingEnabled: settings.orderingEnabled,
    deadline: settings.deadline,
    active: reason === null,
    // The same reason ORDERING_CLOSED gives.
    closedReason: reason,
  };
}
