/**
 * Shipping labels (docs/contract.md, "Labels"), decorated as `fastify.labels`. Used by the label routes
 * and by the notifier (receipt attachments). Nothing else touches sharp or docx for labels.
 */
import type { Readable } from 'node:stream';
import type { OrderRecord } from '../../domain/order.js';
import type { BatchRequest, LabelBatch } from './batch.js';
import type { BatchPdfOptions } from './pdf.js';

export type { BatchPdfOptions, SlipLine } from './pdf.js';

export type LabelFile = { filename: string; contentType: string; content: Buffer };

export interface LabelRenderer {
  /** 4 × 6 in at 300 dpi: 1800 × 1200 px, landscape. */
  png(order: OrderRecord): Promise<LabelFile>;
  /** One editable page with the same content. */
  docx(order: OrderRecord): Promise<LabelFile>;
  /**
   * Batch labels (docs/contract.md, "Fulfilment"): one PDF, a 6 × 4 in page per order in the
   * given order, each followed by its packing slip (4 × 6 in portrait) when `opts.slip` is
   * given; streamed as it is laid out. Throws (at once, not by rejecting) on an empty list.
   */
  batchPdf(orders: readonly OrderRecord[], opts?: BatchPdfOptions): Promise<Readable>;
  /** The same labels as one DOCX, a page per label. Throws on an empty list. */
  batchDocx(orders: readonly OrderRecord[], title?: string): Promise<LabelFile>;
}

/** `fastify.labels`: the renderer, for the return address saved now, and an event's batch (batch.ts). */
export type Labels = LabelRenderer & { eventBatch(request: BatchRequest): Promise<LabelBatch> };
