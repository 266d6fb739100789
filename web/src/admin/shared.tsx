/** Pieces the admin views share: order lines read back from the items text, status badges, labels. */
import { adminApi, asFile, raw } from '../lib/api.js';
import type { AdminOrder, Order } from '../lib/api-schema.js';
import { onAdminError } from './session.js';

export type ItemLine = { text: string; number: string; size: string; quantity: number; amount: string };

const LINE = /^Photo\s*#\s*(\S+)\s*\(([^()]*)\)\s*[x×]\s*(\d+)(?:\s*=\s*(\S+))?/i;

export function itemLines(items: string): ItemLine[] {
  return items
    .split(/;\s*/)
    .filter(Boolean)
    .map((text) => {
      const m = LINE.exec(text.trim());
      return m
        ? { text, number: m[1] as string, size: m[2] as string, quantity: Number(m[3]), amount: m[4] ?? '' }
        : { text, number: '', size: '', quantity: 0, amount: '' };
    });
}

const STATUS_CLASS: Record<Order['status'], string> = {
  pending: 'badge-warn',
  paid: 'badge-ok',
  void: 'badge-muted',
  cancelled: 'badge-muted',
};

/**
 * Photos of an unpaid order taken down for good (docs/contract.md, "Takedown requests"); the admin
 * routes answer the AdminOrder, which lists them.
 */
export function removedPhotos(order: Order): string[] {
  return (order as Partial<AdminOrder>).removedPhotos ?? [];
}

export function StatusBadges({ order }: { order: Order }) {
  return (
    <>
      <span class={`badge ${STATUS_CLASS[order.status]}`}>{order.status}</span>
      {order.verificationRequired && <span class="badge badge-warn">awaiting email confirmation</span>}
      {order.fulfillmentType === 'digital' ? (
        <span class="badge badge-info">digital files</span>
      ) : order.fulfillmentType === 'pickup' ? (
        <span class={`badge ${order.pickupStatus === 'waiting' || !order.pickupStatus ? 'badge-muted' : 'badge-ok'}`}>
          pickup{order.pickupStatus && order.status === 'paid' ? `: ${order.pickupStatus}` : ''}
        </span>
      ) : order.shippingStatus === 'shipped' ? (
        <span class="badge badge-ok">shipped</span>
      ) : (
        <span class="badge badge-info">to ship</span>
      )}
      {order.channel === 'booth' && <span class="badge badge-muted">booth</span>}
      {order.status === 'pending' && removedPhotos(order).length > 0 && (
        <span class="badge badge-warn">photo removed</span>
      )}
    </>
  );
}

/** The file name a `Content-Disposition` header gives (`filename*` first), else `fallback`. */
function fileNameOf(res: Response, fallback: string): string {
  const header = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star) {
    try {
      return decodeURIComponent(star[1] as string);
    } catch {
      // fall through to the plain name
    }
  }
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? fallback;
}

/**
 * Downloads a file through fetch: admin files need the Authorization header, which a plain
 * link cannot send. Resolves with the response (its headers tell counts).
 */
export async function downloadFile(pending: Promise<{ response: Response }>, fallbackName: string): Promise<Response> {
  let res: Response;
  try {
    res = await raw(pending);
  } catch (err) {
    throw onAdminError(err);
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileNameOf(res, fallbackName);
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 30_000);
  return res;
}

export async function downloadLabel(order: Order, format: 'png' | 'docx'): Promise<void> {
  const init = { params: { path: { id: order.id } }, ...asFile };
  const file =
    format === 'png'
      ? adminApi.GET('/api/orders/{id}/envelope/png', init)
      : adminApi.GET('/api/orders/{id}/envelope/docx', init);
  await downloadFile(file, `label-${order.orderNumber}.${format}`);
}
