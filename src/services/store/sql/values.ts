/**
 * Reading column values the same way from both engines (sql/db.ts): SQLite has no booleans
 * (0/1) and keeps JSON as text; PostgreSQL returns booleans and parsed JSON.
 */

export const bool = (v: unknown): boolean => v === true || v === 1;

export const nullableBool = (v: unknown): boolean | null => (v === null || v === undefined ? null : bool(v));

export const json = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : v);

/** `x IN (?, ?, ...)` for `n` values. */
export const placeholders = (n: number): string => Array.from({ length: n }, () => '?').join(', ');

/** Drops undefined values (a patch's absent keys). */
export function definedOnly<T extends object>(obj: T): Partial<T> {
  return Object.fromEntries(Object.entries(obj).filter(([, v]) => v !== undefined)) as Partial<T>;
}
