/**
 * The spreadsheet mirror's records (docs/store.md, "For the mirror"): per order, the version
 * and cells last written to the sheet (the base of its three-way comparison), its state and
 * the problems found. The mirror worker is the only writer; /readyz and the admin read it here,
 * so every process shows the same. Imports and hand edits are written with their mirror row in
 * one transaction, so a crash never leaves the record changed and the base stale.
 */
import { z } from 'zod';
import type { OrderRecord } from '../../../domain/order.js';
import type { Applied } from '../../../domain/order-changes.js';

/** A row's cells by column key (src/services/mirror/sheets/layout.ts), as text. */
export const MirrorCells = z.record(z.string(), z.string());
export type MirrorCells = z.infer<typeof MirrorCells>;

export const MirrorRow = z.object({
  orderId: z.string().min(1),
  /** The order's version the cells were written from; 0: compare with the record and write the difference. */
  version: z.number().int().min(0),
  cells: MirrorCells,
  /** The 1-based sheet row where it was last seen (rows move when people sort or insert). */
  sheetRow: z.number().int().min(2).nullable(),
  /** The row was removed by hand: reported, never re-appended. */
  removed: z.boolean(),
  writtenAt: z.iso.datetime({ offset: true }),
});
export type MirrorRow = z.infer<typeof MirrorRow>;

const PROBLEM_KINDS = ['conflict', 'rejected', 'unreadable', 'removed', 'duplicate'] as const;
const ProblemKind = z.enum(PROBLEM_KINDS);
type ProblemKind = z.infer<typeof ProblemKind>;

export const MirrorProblem = z.object({
  kind: ProblemKind,
  orderId: z.string().nullable(),
  orderNumber: z.string().nullable(),
  sheetRow: z.number().int().nullable().describe('1-based row of the sheet, when known'),
  message: z.string().describe('What happened, in words'),
  at: z.iso.datetime({ offset: true }).describe('When it was found (ISO 8601)'),
});
export type MirrorProblem = z.infer<typeof MirrorProblem>;

export const MirrorState = z.object({
  lastSyncAt: z.iso.datetime({ offset: true }).nullable(),
  lastError: z.string().nullable().describe('The last failure, in words; null once the sheet answers again'),
  lastErrorAt: z.iso.datetime({ offset: true }).nullable(),
  importedAt: z.iso
    .datetime({ offset: true })
    .nullable()
    .describe('When the sheet was first read (its orders imported)'),
});
export type MirrorState = z.infer<typeof MirrorState>;

export type PendingOrder = { order: OrderRecord; written: MirrorRow | null };

/** Problems that describe the sheet as last read: replaced by every read. The others are events, kept. */
export const SNAPSHOT_KINDS: readonly ProblemKind[] = ['unreadable', 'removed', 'duplicate'];
/** Events kept (conflicts, refused edits): the latest this many. */
export const MAX_EVENT_PROBLEMS = 200;

export type ImportRow = { order: OrderRecord; prefix: string; seq: number; cells: MirrorCells; sheetRow: number };

export interface MirrorPort {
  /** Orders to write (version above the one written, or none written; not removed by hand), in number order, at most `limit`. */
  pending(limit: number): Promise<PendingOrder[]>;
  pendingCount(): Promise<number>;
  /** Every mirror row, by order id. */
  rows(): Promise<Map<string, MirrorRow>>;
  /** Records what was written (or adopted from the sheet): insert or replace. */
  recordWritten(rows: readonly Omit<MirrorRow, 'writtenAt'>[]): Promise<void>;
  /**
   * Takes orders found in the sheet into the record with their ids, numbers, statuses and
   * cells, each with its mirror row; an order whose id or number the record has already is
   * skipped (returned with the reason). Numbering continues after the highest imported.
   */
  importOrders(
    rows: readonly ImportRow[],
  ): Promise<{ imported: OrderRecord[]; skipped: { row: ImportRow; reason: string }[] }>;
  /**
   * A hand edit: reads the order locked, `apply`s it (src/domain/order-changes.ts; an AppError
   * it throws writes nothing and is thrown) and writes the order with `cells` as its new base,
   * in one transaction.
   */
  applyEdit(orderId: string, apply: (order: OrderRecord) => Applied, cells: MirrorCells): Promise<Applied>;
  state(): Promise<MirrorState>;
  setState(patch: Partial<MirrorState>): Promise<void>;
  /** Newest first. */
  problems(): Promise<MirrorProblem[]>;
  /** Replaces the problems of SNAPSHOT_KINDS with what the last read found. */
  replaceSnapshotProblems(problems: readonly MirrorProblem[]): Promise<void>;
  /** Adds conflicts and refused edits, keeping the latest MAX_EVENT_PROBLEMS. */
  addEvents(problems: readonly MirrorProblem[]): Promise<void>;
  /** Changes when anything was committed since (sql/db.ts `changeMarker`): nothing new to write while equal. */
  changeMarker(): Promise<string>;
}
