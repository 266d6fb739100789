/**
 * Shipping labels (docs/contract.md, "Labels"), decorated as `fastify.labels`. Used by the label routes
 * and by the notifier (receipt attachments). Nothing else touches sharp or docx for labels.
 */
import type { OrderRecord } from '../../domain/order.js';

export type LabelFile = { filename: string; contentType: string; content: Buffer };

export interface LabelRenderer {
  /** 4 × 6 in at 300 dpi: 1800 × 1200 px, landscape. */
  png(order: OrderRecord): Promise<LabelFile>;
  /** One editable page with the same content. */
  docx(order: OrderRecord): Promise<LabelFile>;
}
