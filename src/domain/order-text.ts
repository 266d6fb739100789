/**
 * An order's fields as text for the outside (the API's order views, the customer's page, the
 * sheet's row, the CSV export): its lines as text and its money as "$12.50" text, declared once
 * so the views cannot drift apart.
 */
import { formatItems } from './items.js';
import { formatCents } from './money.js';
import { printProgress } from './offers.js';
import type { OrderLine, OrderRecord } from './order.js';
import type { ApiText, CellText } from './order-fields.js';

/** The payment page, while there is something to pay. */
export function paymentUrl(o: OrderRecord): string | null {
  return o.status === 'pending' && !o.held && o.payment !== null ? o.payment.url : null;
}

/** How the API's views read a field of a record: as it is, or as text (see `ApiText`). */
export function apiReader(kind: ApiText | undefined, field: keyof OrderRecord): (o: OrderRecord) => unknown {
  if (kind === 'money') return (o) => formatCents(o[field] as number);
  if (kind === 'lines') return (o) => formatItems(o[field] as OrderLine[]);
  return kind === 'payUrl' ? paymentUrl : (o) => o[field];
}

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
      return value === null ? '' : value ? 'TRUE' : 'FALSE';
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
