/**
 * The error body (docs/contract.md, "Hosts and formats") as a zod schema, and
 * `errorResponses()`, with which every route declares its errors for the OpenAPI document.
 */
import { z } from 'zod';
import { type ErrorCode, errorCatalogue } from '../errors/catalogue.js';

export const ErrorBody = z
  .object({
    error: z.string().describe('Human-readable description'),
    code: z.string().describe('Stable machine-readable code (SCREAMING_SNAKE)'),
    details: z.string().describe('More detail; a JSON-encoded string for field lists; never a stack trace'),
  })
  .meta({ id: 'Error' });

/** Response schemas for these codes, grouped by status; 500 INTERNAL is always included. */
export function errorResponses(...codes: ErrorCode[]): Record<number, typeof ErrorBody> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...codes, 'INTERNAL' as const]) {
    const status = errorCatalogue[code].status;
    const list = byStatus.get(status) ?? [];
    if (!list.includes(code)) list.push(code);
    byStatus.set(status, list);
  }
  const out: Record<number, typeof ErrorBody> = {};
  for (const [status, list] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    const text = list.map((c) => `\`${c}\`: ${errorCatalogue[c].message}`).join('. ');
    out[status] = described.get(text) ?? described.set(text, ErrorBody.describe(text)).get(text)!;
  }
  return out;
}

/** One schema per description, made once per process: every app's routes ask for the same ones. */
const described = new Map<string, typeof ErrorBody>();
