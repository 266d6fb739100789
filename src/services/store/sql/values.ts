/**
 * Reading column values the same way from both engines (sql/db.ts): SQLite has no booleans
 * (0/1) and keeps JSON as text; PostgreSQL returns booleans and parsed JSON.
 */

export const bool = (v: unknown): boolean => v === true || v === 1;

export const nullableBool = (v: unknown): boolean | null => (v === null || v === undefined ? null : bool(v));

export const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/**
 * A row's columns under their camelCase names (`created_at` → `createdAt`), undefined read
 * as null: what a port's schema parses, beside the few columns that need converting.
 */
export function camelRow(r: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(r)) out[k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())] = v ?? null;
  return out;
}

/** `x IN (?, ?, ...)` for `n` values. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** Drops undefined values (a patch's absent keys). */
export function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
