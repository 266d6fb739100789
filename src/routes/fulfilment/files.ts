/**
 * What every fulfilment download shares: an attachment that is never cached (it carries
 * names and addresses) and never sniffed, under a file name that is safe in a header.
 */
import type { FastifyReply } from 'fastify';
import { z } from 'zod';

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
