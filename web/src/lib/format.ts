/** Money in integer cents (never floating dollars), dates for people. */

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

export const dollarsToCents = (dollars: number): number => Math.round(dollars * 100);

/** `$1,234.50`, for people. */
export const money = (cents: number): string => usd.format(cents / 100);

/** `"$12.50"` → 1250; NaN when unreadable. */
export function parseMoneyText(text: string): number {
  const m = /^(-)?\$?(\d+)(?:\.(\d{1,2}))?$/.exec(text.trim().replace(/,/g, ''));
  if (!m) return Number.NaN;
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '0').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

export function formatDate(iso: string | null | undefined, opts: Intl.DateTimeFormatOptions = {}): string {
  if (!iso) return '';
  // A bare date (`2026-07-03`) is a calendar day, not midnight UTC.
  const d = /^\d{4}-\d{2}-\d{2}$/.test(iso) ? new Date(`${iso}T12:00:00`) : new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', ...opts });
}

/**
 * An ordering deadline, for people. A deadline at midnight closes ordering as that day
 * begins, so it reads as the end of the day before ("the end of Jul 31, 2026"), never as
 * the date on which nothing can be ordered any more; any other time shows date and time.
 */
export function formatDeadline(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  if (d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0) {
    const lastDay = new Date(d.getTime() - 1);
    return `the end of ${lastDay.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' })}`;
  }
  return d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}
