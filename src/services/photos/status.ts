/**
 * Whether an event is open for orders (docs/contract.md, "Events"): the one place this is decided.
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
  const deadlineMs = settings.deadline === null ? null : Date.parse(settings.deadline);
  const beforeDeadline = deadlineMs === null || (Number.isFinite(deadlineMs) && now < deadlineMs);
  const active = !settings.isArchived && settings.orderingEnabled && beforeDeadline;
  return {
    isArchived: settings.isArchived,
    orderingEnabled: settings.orderingEnabled,
    deadline: settings.deadline,
    active,
    // The same reason ORDERING_CLOSED gives. A deadline that is not a date (event.json and the
    // admin route both refuse one) closes the event above; it counts as the deadline here too.
    closedReason: active ? null : (closedReason(settings, new Date(now)) ?? 'deadline'),
  };
}
