/**
 * The `items` text of an Order (interface: `Photo #<number> (<size>) x<quantity> = $<amount>`,
 * lines separated by semicolons). Generated from order lines for responses and the
 * spreadsheet; parsed back from variant-B submissions and spreadsheet rows.
 */
import { formatCents, parseMoney } from './money.js';
import type { OrderLine } from './order.js';

const ITEM_SEPARATOR = '; ';

export function formatItemLine(line: OrderLine): string {
  return `Photo #${line.photoNumber} (${line.size}) x${line.quantity} = ${formatCents(line.lineCents)}`;
}

export function formatItems(lines: readonly OrderLine[]): string {
  return lines.map(formatItemLine).join(ITEM_SEPARATOR);
}

/** One line as a client wrote it: the amount is what the client claims (null if absent). */
type ParsedItemLine = { photoNumber: string; size: string; quantity: number; amountCents: number | null };

export type ParseItemsResult =
  | { ok: true; lines: ParsedItemLine[] }
  | { ok: false; errors: { line: number; text: string; message: string }[] };

const LINE = /^Photo\s*#\s*([A-Za-z0-9_-]{1,32})\s*\(\s*([^()]{1,32}?)\s*\)\s*[x×*]\s*(\d{1,3})\s*(?:=\s*(\S.*?))?$/i;

/**
 * Parses items text. Lines are separated by `;` or newlines; blank lines are ignored.
 * Quantities outside 1–99 are reported here; photo and size checks need the event.
 */
export function parseItems(text: string): ParseItemsResult {
  const raw = text
    .split(/[;\n]/)
    .map((l) => l.trim())
    .filter(Boolean);
  const lines: ParsedItemLine[] = [];
  const errors: { line: number; text: string; message: string }[] = [];
  raw.forEach((l, i) => {
    const m = LINE.exec(l);
    if (!m) {
      errors.push({
        line: i + 1,
        text: l.slice(0, 100),
        message: 'expected "Photo #<number> (<size>) x<quantity> = $<amount>"',
      });
      return;
    }
    const quantity = Number(m[3]);
    let amountCents: number | null = null;
    if (m[4] !== undefined) {
      amountCents = parseMoney(m[4]);
      if (amountCents === null) {
        errors.push({ line: i + 1, text: l.slice(0, 100), message: `"${m[4].slice(0, 20)}" is not an amount` });
        return;
      }
    }
    if (quantity < 1 || quantity > 99) {
      errors.push({ line: i + 1, text: l.slice(0, 100), message: 'quantity must be 1-99' });
      return;
    }
    lines.push({ photoNumber: m[1] as string, size: m[2] as string, quantity, amountCents });
  });
  if (raw.length === 0) errors.push({ line: 0, text: '', message: 'at least one line is required' });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, lines };
}
