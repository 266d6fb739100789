/**
 * The LabelRenderer behind `fastify.labels`: PNG and DOCX from the same label content.
 * Plain module (no Fastify), so tests and the bench use it directly.
 */
import type { OrderRecord } from '../../domain/order.js';
import { labelContent } from './content.js';
import { createPngLabelRenderer } from './png.js';
import type { LabelRenderer } from './types.js';

const PNG_CONTENT_TYPE = 'image/png';
export const DOCX_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

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
  };
}
