/**
 * Whether an event is open for orders (SPEC §3): the one place this is decided.
 * Today the settings come from event.json; when admins override them through the order
 * store, the caller passes the merged settings and adds the store's settings generation
 * to its page-cache keys.
 */
import type { EventDefaults } from './types.js';

export type EventSettings = Pick<EventDefaults, 'isArchived' | 'orderingEnabled' | 'deadline'>;

export type EventStatus = {
  isArchived: boolean;
  orderingEnabled: boolean;
  deadline: string | null;
  /** Open for orders: not archived, ordering enabled, and the deadline (if any) still ahead. */
  active: boolean;
};

export function eventStatus(settings: EventSettings, now: number = Date.now()): EventStatus {
  const deadlineMs = settings.deadline === null ? null : Date.parse(settings.deadline);
  const beforeDeadline = deadlineMs === null || (Number.isFinite(deadlineMs) && now < deadlineMs);
  return {
    isArchived: settings.isArchived,
    orderingEnabled: settings.orderingEnabled,
    deadline: settings.deadline,
    active: !settings.isArchived && settings.orderingEnabled && beforeDeadline,
  };
}
