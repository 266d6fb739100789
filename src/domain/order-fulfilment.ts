/**
 * Fulfilment's changes to an order (docs/contract.md, "Fulfilment", "Printing at the booth"):
 * shipping, the pickup booth's status, lines marked printed, printers' notes. Prints come
 * first: an order is marked shipped, ready or collected only once its print lines are
 * printed. Pure functions, like the rest of order-changes.ts (which re-exports these).
 */
import { appError } from '../errors/catalogue.js';
import { formatItemLine } from './items.js';
import { isDigitalSize } from './offers.js';
import { type Actor, type HistoryEntry, itemId, type OrderLine, type OrderRecord, type PickupStatus } from './order.js';
import { type Applied, next } from './order-version.js';
import { checkPickup, checkShippable } from './transitions.js';

/** `shipped: false` undoes shipping; `printAll` marks the unprinted print lines printed with it. */
export type ShippingPatch = { shipped: boolean; trackingNumber?: string | undefined; printAll?: boolean | undefined };

/** Marking shipped needs a paid order that ships; undoing goes back to `ship`, tracking cleared. */
export function applyShipping(order: OrderRecord, patch: ShippingPatch, now: Date, by: Actor): Applied {
  if (patch.shipped || patch.trackingNumber !== undefined) checkShippable(order);
  // Undoing shipping on an order that is not shipped (a pickup order included) changes nothing.
  const shippingStatus = patch.shipped ? 'shipped' : order.shippingStatus === 'shipped' ? 'ship' : order.shippingStatus;
  const trackingNumber = patch.trackingNumber ?? (patch.shipped ? order.trackingNumber : '');
  const at = now.toISOString();
  const entries: HistoryEntry[] = [];
  const changes: Partial<OrderRecord> = { shippingStatus, trackingNumber };
  if (shippingStatus !== order.shippingStatus) {
    if (shippingStatus === 'shipped') {
      Object.assign(changes, printsFirst(order, patch.printAll, 'marked shipped', now, by, entries));
    }
    entries.push({ at, action: 'shipping', from: order.shippingStatus, to: shippingStatus, by });
  }
  if (trackingNumber !== order.trackingNumber) {
    entries.push({ at, action: 'edit', field: 'trackingNumber', from: order.trackingNumber, to: trackingNumber, by });
  }
  if (entries.length === 0) return { order, changed: false };
  return { order: next(order, changes, entries, now), changed: true };
}

/** The order's print lines (digital files are never printed) not marked printed yet, as 0-based indexes. */
function unprintedLines(order: Pick<OrderRecord, 'items' | 'printed'>): number[] {
  const done = new Set(order.printed.map((p) => p.line));
  const out: number[] = [];
  order.items.forEach((line, index) => {
    if (!isDigitalSize(line.size) && !done.has(index)) out.push(index);
  });
  return out;
}

/**
 * With `printAll` the unprinted lines are marked printed by the same change (their entries
 * pushed to `entries`) and the new `printed` list is returned; without it, 409 NOT_PRINTED.
 */
function printsFirst(
  order: OrderRecord,
  printAll: boolean | undefined,
  becoming: string,
  now: Date,
  by: Actor,
  entries: HistoryEntry[],
): Partial<OrderRecord> {
  const waiting = unprintedLines(order);
  if (waiting.length === 0) return {};
  if (!printAll) {
    const lines = waiting.map((l) => ({ index: l, line: order.items[l] as OrderLine }));
    const named = lines.map((l) => `${itemId(order.orderNumber, l.index)} ${formatItemLine(l.line)}`).join('; ');
    const them = waiting.length === 1 ? 'it' : 'them';
    throw appError('NOT_PRINTED', {
      message: `Order ${order.orderNumber} cannot be ${becoming} before its prints exist: not printed yet: ${named}. Mark ${them} printed first, or send printAll: true`,
      details: {
        orderNumber: order.orderNumber,
        notPrinted: lines.map((l) => ({
          itemId: itemId(order.orderNumber, l.index),
          photoNumber: l.line.photoNumber,
          size: l.line.size,
          quantity: l.line.quantity,
        })),
      },
    });
  }
  const marked = printedMarks(order, waiting, now, by);
  entries.push(...marked.entries);
  return { printed: marked.printed };
}

/** New `printed` marks for those of `lines` not marked before, and a history entry for each. */
function printedMarks(
  order: OrderRecord,
  lines: readonly number[],
  now: Date,
  by: Actor,
): { printed: OrderRecord['printed']; entries: HistoryEntry[] } {
  const done = new Set(order.printed.map((p) => p.line));
  const at = now.toISOString();
  const marks = [...new Set(lines)].filter((l) => !done.has(l)).sort((a, b) => a - b);
  const entries: HistoryEntry[] = marks.map((line) => ({
    at,
    action: 'printed',
    field: itemId(order.orderNumber, line),
    to: formatItemLine(order.items[line] as OrderLine),
    by,
  }));
  return { printed: [...order.printed, ...marks.map((line) => ({ line, at, by }))], entries };
}

/**
 * A pickup order's booth status (docs/contract.md, "Fulfilment"): needs a paid pickup order
 * (transitions.ts, checkPickup). Asking for the current status again changes nothing. `ready`
 * and `collected` need every print line printed, or `printAll` to mark them printed with it.
 */
export function applyPickup(order: OrderRecord, to: PickupStatus, now: Date, by: Actor, printAll = false): Applied {
  if (checkPickup(order, to) === 'same') return { order, changed: false };
  const entries: HistoryEntry[] = [];
  const changes: Partial<OrderRecord> = { pickupStatus: to };
  if (to === 'ready' || to === 'collected') {
    Object.assign(changes, printsFirst(order, printAll, `marked ${to}`, now, by, entries));
  }
  entries.push({ at: now.toISOString(), action: 'pickup', from: order.pickupStatus ?? '', to, by });
  return { order: next(order, changes, entries, now), changed: true };
}

/**
 * Marks lines printed (0-based indexes into `items`): one history entry per line newly marked,
 * naming its item id and what it was. Lines marked before stay as they were (their first
 * mark is kept); an order with nothing new is unchanged. Only paid orders are printed
 * (else 409 INVALID_TRANSITION); a line the order does not have is 400 VALIDATION_FAILED.
 */
export function applyPrinted(order: OrderRecord, lines: readonly number[], now: Date, by: Actor): Applied {
  if (order.status !== 'paid') {
    throw appError('INVALID_TRANSITION', {
      message: `Order ${order.orderNumber} is ${order.status}; only paid orders are printed`,
      details: { orderNumber: order.orderNumber, status: order.status },
    });
  }
  const missing = lines.filter((l) => !(Number.isInteger(l) && l >= 0 && l < order.items.length));
  if (missing.length > 0) {
    throw appError('VALIDATION_FAILED', {
      message: `Order ${order.orderNumber} has ${order.items.length} lines`,
      details: missing.map((l) => ({
        in: 'body',
        field: 'itemIds',
        message: `no line ${itemId(order.orderNumber, l)}`,
      })),
    });
  }
  const { printed, entries } = printedMarks(order, lines, now, by);
  if (entries.length === 0) return { order, changed: false };
  return { order: next(order, { printed }, entries, now), changed: true };
}

/** What a printer did with a line (docs/contract.md, "Printing at the booth"). */
export type PrintNote = { action: 'print-sent' | 'print-failed'; itemId: string; text: string };

/**
 * A line sent to a printer, or back from one unprinted: one `print-sent` / `print-failed`
 * entry (the item id in `field`, the printer's words in `to`). The same note again changes
 * nothing, so a job's outcome noted twice (a restart between the note and the job's record)
 * shows once.
 */
export function applyPrintNote(order: OrderRecord, note: PrintNote, now: Date, by: Actor): Applied {
  const same = (h: HistoryEntry) => h.action === note.action && h.field === note.itemId && h.to === note.text;
  if (order.history.some(same)) return { order, changed: false };
  const entry: HistoryEntry = { at: now.toISOString(), action: note.action, field: note.itemId, to: note.text, by };
  return { order: next(order, {}, [entry], now), changed: true };
}
