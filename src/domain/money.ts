/**
 * Money is integer cents everywhere inside the service. These are the only places
 * where cents become text (`"$12.50"`) or dollars from event.json become cents.
 */

/** 1250 → "$12.50". */
export function formatCents(cents: number): string {
  if (!Number.isSafeInteger(cents)) throw new TypeError(`not an integer number of cents: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}$${Math.trunc(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** "$12.50", "12.5", "$1,234.00", " 12 " → cents; anything else → null. No floats involved. */
export function parseMoney(text: string): number | null {
  const m = /^\s*(-)?\s*\$?\s*(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!m) return null;
  const whole = Number((m[2] ?? '0').replaceAll(',', ''));
  const cents = whole * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) return null;
  return m[1] ? -cents : cents;
}

/** A dollar amount from JSON (5, 10.5, 19.99) → cents, rounding away float noise. */
export function dollarsToCents(dollars: number): number {
  return Math.round(dollars * 100);
}

/** Cents → a dollar number for the sales summary (docs/contract.md, "Hosts and formats": numbers there). */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}
