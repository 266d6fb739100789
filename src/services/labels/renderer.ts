/**
 * The LabelRenderer behind `fastify.labels`: PNG and DOCX from the same label content.
 * Plain module (no Fastify), so tests and the bench use it directly.
 */
import type { OrderRecord } from '../../domain/order.js';
import { labelContent } from './content.js';
import { renderLabelsPdf } from './pdf.js';
import { createPngLabelRenderer } from './png.js';
import type { LabelRenderer } from './types.js';

const PNG_CONTENT_TYPE = 'image/png';
export const DOCX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function needOrders(orders: readonly OrderRecord[]): void {
  if (orders.length === 0) throw new Error('batch labels need at least one order');
}

function labelFilename(orderNumber: string, ext: 'png' | 'docx'): string {
  return `label-${orderNumber}.${ext}`;
}

export function createLabelRenderer(opts: { returnAddress: string }): LabelRenderer {
  const png = createPngLabelRenderer({ returnAddress: opts.returnAddress });
  return {
    async png(order: OrderRecord) {
      const content = await png.render(labelContent(order));
      return { filename: labelFilename(order.orderNumber, 'png'), contentType: PNG_CONTENT_TYPE, content };
    },
    async docx(order: OrderRecord) {
      // The docx library is loaded on the first DOCX label, not at start-up (about 40 ms).
      const { renderDocxLabel } = await import('./docx.js');
      const content = await renderDocxLabel(labelContent(order), opts.returnAddress);
      return { filename: labelFilename(order.orderNumber, 'docx'), contentType: DOCX_CONTENT_TYPE, content };
    },
    batchPdf(orders, batchOpts) {
      needOrders(orders);
      return renderLabelsPdf(orders, opts.returnAddress, batchOpts);
    },
    async batchDocx(orders, title) {
      needOrders(orders);
      const { renderDocxLabels } = await import('./docx.js');
      const content = await renderDocxLabels(orders.map(labelContent), opts.returnAddress, title);
      return { filename: 'labels.docx', contentType: DOCX_CONTENT_TYPE, content };
    },
  };
}
