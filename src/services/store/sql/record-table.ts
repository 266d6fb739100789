/**
 * A record's table, declared once: which column holds each field of the port's zod record and
 * how (its storage kind, src/domain/order-fields.ts `Storage`). The column list, the INSERT and
 * its values, and the row → record conversion ending in the record's parse all follow from it
 * (docs/store.md, "Adding a record"). Orders compile theirs from the order field table
 * (sql/order-rows.ts); every other record from its port's zod object (`recordTable`).
 */
import type { z } from 'zod';
import type { Storage } from '../../../domain/order-fields.js';
import type { Param, Row } from './db.js';
import { bool, json, nullableBool } from './values.js';

export type Column<F extends string = string> = {
  readonly field: F;
  readonly column: string;
  readonly storage: Storage;
  /** Whether the field may be null (the column must take NULL). */
  readonly nullable: boolean;
  readonly write: (value: unknown) => Param;
  readonly read: (cell: unknown) => unknown;
};

const asIs = (v: unknown) => v as Param;
const jsonText = (v: unknown): Param => (v === null ? null : JSON.stringify(v));
const fromJson = (v: unknown): unknown => (v === null || v === undefined ? null : json(v));
const orNull = (v: unknown) => v ?? null;

/**
 * How a field of each kind is written and read back: SQLite keeps booleans as 0/1 and JSON as
 * text; text, numbers and timestamps (`toISOString()` text, engines/postgres/engine.ts) come
 * back from both engines as they went in.
 */
export function column<F extends string>(field: F, name: string, storage: Storage, nullable: boolean): Column<F> {
  const c = { field, column: name, storage, nullable };
  if (storage === 'json') return { ...c, write: jsonText, read: fromJson };
  if (storage === 'boolean') return { ...c, write: asIs, read: nullable ? nullableBool : bool };
  return { ...c, write: asIs, read: orNull };
}

export type RecordTable<T> = {
  readonly columns: readonly Column[];
  /** The record's columns, in the table's order: what a SELECT reads. */
  readonly names: readonly string[];
  readonly select: string;
  /** `INSERT INTO <table> (<columns>, <extra>) VALUES (?, ...) <suffix>`; its values: `values`. */
  insertSql(extra?: readonly string[], suffix?: string): string;
  /** The record's values in column order, then `extra` (the INSERT's columns beyond the record's). */
  values(record: T, ...extra: Param[]): Param[];
  /** A row (SELECT `select`) as the record, parsed with the port's schema. */
  toRecord(row: Row): T;
  /** The same from the row's values in `select` order (`Queryable.eachRow`: no object per row from the engine). */
  fromValues(values: readonly unknown[]): T;
};

/**
 * The table of `columns`. `derive` fills the fields no column holds (and may adjust the others)
 * before `parse`. Every record read starts with the same shape, every field null: V8 keeps it a
 * fast object, and zod parses it several times faster.
 */
export function tableOf<T>(
  table: string,
  columns: readonly Column[],
  parse: (o: unknown) => T,
  opts: { derived?: readonly string[]; derive?: (o: Record<string, unknown>) => void } = {},
): RecordTable<T> {
  const names = columns.map((c) => c.column);
  const shape: Readonly<Record<string, unknown>> = Object.fromEntries(
    [...columns.map((c) => c.field), ...(opts.derived ?? [])].map((f) => [f, null]),
  );
  const n = columns.length;
  return {
    columns,
    names,
    select: names.join(', '),
    insertSql: (extra = [], suffix = '') =>
      `INSERT INTO ${table} (${[...names, ...extra].join(', ')}) VALUES (${[...names, ...extra].map(() => '?').join(', ')})${suffix ? ` ${suffix}` : ''}`,
    values(record, ...extra) {
      const values: Param[] = new Array(n + extra.length);
      for (let i = 0; i < n; i++) {
        const c = columns[i] as Column;
        values[i] = c.write((record as Record<string, unknown>)[c.field]);
      }
      for (let i = 0; i < extra.length; i++) values[n + i] = extra[i] as Param;
      return values;
    },
    toRecord(row) {
      const o: Record<string, unknown> = { ...shape };
      for (const c of columns) o[c.field] = c.read(row[c.column]);
      opts.derive?.(o);
      return parse(o);
    },
    fromValues(values) {
      const o: Record<string, unknown> = { ...shape };
      for (let i = 0; i < n; i++) {
        const c = columns[i] as Column;
        o[c.field] = c.read(values[i]);
      }
      opts.derive?.(o);
      return parse(o);
    },
  };
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * How a field of this zod type is held (the migrations give each kind one type per engine):
 * booleans, integers, other numbers, ISO timestamps and other text as such; objects and arrays as JSON.
 */
export function storageOf(schema: z.ZodType): Storage {
  let s = schema as z.ZodType & { format?: string | null };
  while (s.def.type === 'nullable' || s.def.type === 'optional')
    s = (s.def as unknown as { innerType: typeof s }).innerType;
  const type = s.def.type;
  if (type === 'boolean') return 'boolean';
  if (type === 'number') return s.format === 'safeint' ? 'integer' : 'real';
  if (type === 'string') return s.format === 'datetime' ? 'timestamp' : 'text';
  return type === 'enum' || type === 'literal' ? 'text' : 'json';
}

/**
 * The table of a port's zod record: a column per field, named after it in snake_case (or as
 * `columns` says) and held as its zod type says (`storageOf`); `derived` fields have no
 * column and are made from the others, in order, before the parse.
 */
export function recordTable<S extends z.ZodObject>(
  table: string,
  schema: S,
  opts: {
    columns?: { readonly [K in keyof z.output<S>]?: string };
    derived?: { readonly [K in keyof z.output<S>]?: (o: Record<string, unknown>) => unknown };
  } = {},
): RecordTable<z.output<S>> {
  const derived = Object.entries(opts.derived ?? {}) as [string, (o: Record<string, unknown>) => unknown][];
  const renamed = (opts.columns ?? {}) as Record<string, string>;
  const columns = Object.entries(schema.shape as Record<string, z.ZodType>)
    .filter(([field]) => !(field in (opts.derived ?? {})))
    .map(([field, s]) => column(field, renamed[field] ?? snakeCase(field), storageOf(s), s.safeParse(null).success));
  return tableOf(table, columns, (o) => schema.parse(o), {
    derived: derived.map(([field]) => field),
    derive: (o) => {
      for (const [field, make] of derived) o[field] = make(o);
    },
  });
}
