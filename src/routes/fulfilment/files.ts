/**
 * What every fulfilment download shares: an attachment that is never cached (it carries
 * names and addresses) and never sniffed, under a file name that is safe in a header; and
 * orders in the order they came in, the order a booth works through them.
 */
import type { FastifyReply } from 'fastify';
import { z } from 'zod';
import type { OrderRecord } from '../../domain/order.js';

/** An OpenAPI body that is a file. */
export const BINARY = z.string().meta({ format: 'binary' });

/**
 * `Content-Disposition` for `name`: an ASCII `filename` (other characters become `_`) and,
 * when the name is not plain ASCII, the exact one as `filename*` (RFC 6266).
 */
function contentDisposition(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return ascii === name
    ? `attachment; filename="${name}"`
    : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export function attachment(reply: FastifyReply, type: string, name: string): FastifyReply {
  return reply
    .header('Content-Type', type)
    .header('Content-Disposition', contentDisposition(name))
    .header('Cache-Control', 'no-store')
    .header('X-Content-Type-Options', 'nosniff');
}

/** By creation time, then order number (two orders may share a millisecond). */
export function oldestFirst(a: OrderRecord, b: OrderRecord): number {
  return Date.parse(a.createdAt) - Date.parse(b.createdAt) || a.orderNumber.localeCompare(b.orderNumber);
}
