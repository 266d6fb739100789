/**
 * What a label says (docs/contract.md, "Labels"), independent of how it is drawn: the PNG and the DOCX
 * renderers both lay out exactly this, so the two files always carry the same text.
 */
import { printLines } from '../../domain/offers.js';
import type { OrderLine, OrderRecord } from '../../domain/order.js';

/** Shown instead of an address on orders collected at the booth. */
const PICKUP_TEXT = 'PICKUP AT BOOTH';
/** ...and on an order of digital files only (nothing to send: the dashboard offers no label for it). */
const DIGITAL_TEXT = 'DIGITAL FILES: NOTHING TO SHIP';

/** Preferred and smallest type sizes (points) of the DOCX and PDF labels. */
export const SIZES = {
  topLine: { preferred: 11, min: 2.5 },
  caption: 7,
  returnAddress: { preferred: 9, min: 4 },
  recipient: { preferred: 15, min: 4 },
};

export type LabelContent = {
  orderNumber: string;
  /** `Photo #<n> (<size>) x<q>`, one per print line, in order (digital files are not in the parcel). */
  items: string[];
  /** The recipient's name, on one line. */
  name: string;
  /** Street lines then `CITY, ST ZIP`; for pickup orders just PICKUP_TEXT. */
  addressLines: string[];
  pickup: boolean;
};

/** Whitespace (incl. newlines and tabs) collapsed; control characters dropped. */
export function cleanText(text: string): string {
  return text
    .replace(/\p{Cc}+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The return address (config RETURN_ADDRESS), one entry per non-empty line. */
export function returnAddressLines(text: string): string[] {
  return text.split(/\r?\n/).map(cleanText).filter(Boolean);
}

function itemText(line: Pick<OrderLine, 'photoNumber' | 'size' | 'quantity'>): string {
  return `Photo #${line.photoNumber} (${line.size}) x${line.quantity}`;
}

/** The top line as plain text: `AX25-0001 · Photo #12 (4x6) x2, Photo #13 (5x7) x1`. */
export function topLineText(content: Pick<LabelContent, 'orderNumber' | 'items'>): string {
  return `${content.orderNumber} · ${content.items.join(', ')}`;
}

export function labelContent(order: OrderRecord): LabelContent {
  const pickup = order.fulfillmentType !== 'ship';
  const name = cleanText(order.customerName) || '(no name)';
  let addressLines: string[];
  if (pickup) {
    addressLines = [order.fulfillmentType === 'digital' ? DIGITAL_TEXT : PICKUP_TEXT];
  } else {
    // The street may hold a second line (apartment, c/o) on its own line: keep the break.
    const street = order.shippingAddress.split(/\r?\n/).map(cleanText).filter(Boolean);
    const city = cleanText(order.city);
    const stateZip = [cleanText(order.state), cleanText(order.zipCode)].filter(Boolean).join(' ');
    const last = [city, stateZip].filter(Boolean).join(', ');
    addressLines = [...street, ...(last ? [last] : [])];
  }
  return { orderNumber: order.orderNumber, items: printLines(order.items).map(itemText), name, addressLines, pickup };
}
