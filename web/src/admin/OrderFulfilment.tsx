/**
 * The fulfilment parts of an order's page (docs/contract.md, "Fulfilment"): each print line
 * with its thumbnail, photo number, original file and print state, and the order's history
 * in words.
 */
import { localUrl } from '../lib/api.js';
import type { AdminOrderLine, OrderHistoryEntry } from '../lib/api-schema.js';
import { formatDateTime } from '../lib/format.js';

/** One row of the order's "Prints" table. */
export function PrintLineRow({ line }: { line: AdminOrderLine }) {
  return (
    <tr class="print-line">
      <td>
        <div class="print-line-photo">
          {line.photo ? (
            <img src={localUrl(line.photo.thumbnail)} alt="" width={64} loading="lazy" />
          ) : (
            <span class="muted small">not in the library</span>
          )}
          <div>
            <strong>#{line.photoNumber}</strong>
            {line.photo && <div class="mono small file-path">{line.photo.file}</div>}
            <div class="small">
              {line.printedAt ? `Printed ${formatDateTime(line.printedAt)}` : <span class="muted">Not printed</span>}
            </div>
          </div>
        </div>
      </td>
      <td>{line.size}</td>
      <td class="num">{line.quantity}</td>
      <td class="num">{line.lineTotal}</td>
    </tr>
  );
}

/** Every change to the order, oldest first: when, what, and who. */
export function OrderHistory({ history }: { history: OrderHistoryEntry[] | undefined }) {
  if (!history || history.length === 0) return null;
  return (
    <section class="card" aria-labelledby="history-title">
      <h2 id="history-title">History</h2>
      <ol class="history">
        {history.map((h, i) => (
          <li key={i}>
            <span class="muted small">{formatDateTime(h.at)}</span> {historyText(h)}{' '}
            <span class="muted small">by {h.by}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** One history entry in words. */
function historyText(h: OrderHistoryEntry): string {
  switch (h.action) {
    case 'create':
      return 'Order placed';
    case 'status':
      return h.from === 'paid' && h.to === 'pending' ? 'Undid “Mark paid”' : `Status ${h.from} → ${h.to}`;
    case 'shipping':
      return `Shipping ${h.from} → ${h.to}`;
    case 'pickup':
      return `Pickup ${h.from} → ${h.to}`;
    case 'printed':
      return `Printed ${h.to ?? h.field ?? ''}`;
    case 'edit':
      return `${h.field} changed from “${h.from ?? ''}” to “${h.to ?? ''}”`;
    case 'feedback':
      return 'Customer feedback';
    case 'hold-release':
      return 'Confirmed by the customer';
    case 'hold-expiry':
      return 'Not confirmed in time: cancelled';
    default:
      return h.action;
  }
}
