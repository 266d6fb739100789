/**
 * The parts of an order every outside view shows alike (the API's order views, the
 * customer's page, the sheet's row): its lines as text and its money as "$12.50" text, and the
 * customer's contact and address as typed. Declared once so the views cannot drift apart.
 */
import { formatItems } from './items.js';
import { formatCents } from './money.js';
import { printProgress } from './offers.js';
import type { OrderLine, OrderRecord } from './order.js';
import type { CellText } from './order-fields.js';

export function orderAmountsText(o: OrderRecord) {
  return {
    items: formatItems(o.items),
    subtotal: formatCents(o.subtotalCents),
    discount: formatCents(o.discountCents),
    shippingFee: formatCents(o.shippingFeeCents),
    total: formatCents(o.totalCents),
  };
}

export function orderContact(o: OrderRecord) {
  return {
    customerName: o.customerName,
    customerEmail: o.customerEmail,
    customerPhone: o.customerPhone,
    fulfillmentType: o.fulfillmentType,
    shippingAddress: o.shippingAddress,
    city: o.city,
    state: o.state,
    zipCode: o.zipCode,
  };
}

const flag = (v: boolean) => (v ? 'TRUE' : 'FALSE');

/** A field's value as the text of a cell (the sheet's row, the CSV export): see `CellText`. */
export function orderCellText(kind: CellText, value: unknown, o: OrderRecord): string {
  switch (kind) {
    case 'text':
      return String(value);
    case 'orEmpty':
      return value === null ? '' : String(value);
    case 'money':
      return formatCents(value as number);
    case 'flag':
      return value === null ? '' : flag(value as boolean);
    case 'lines':
      return formatItems(value as OrderLine[]);
    case 'json':
      return value === null ? '' : JSON.stringify(value);
    case 'progress': {
      // Lines printed of the lines there are to print (digital downloads are never printed).
      const { printed, toPrint } = printProgress(o);
      return toPrint === 0 ? '' : `${printed}/${toPrint}`;
    }
  }
}
