/**
 * Print-ready files (docs/contract.md, "Fulfilment"), as `fastify.prints`. The print routes
 * depend on this interface, never on sharp or the ZIP writer.
 */
import type { Readable } from 'node:stream';
import type { Crop, Inches } from '../../domain/prints.js';
import type { Photo } from '../photos/types.js';

/** One order line to print. */
export type PrintLine = {
  orderNumber: string;
  eventSlug: string;
  photoNumber: string;
  size: string;
  quantity: number;
  crop?: Crop | undefined;
};

/** A line that can be printed: its photo, its size in inches and its file name in a ZIP. */
export type PrintJob = {
  line: PrintLine;
  photo: Photo;
  inches: Inches;
  /** `<orderNumber>_<photoNumber>_<size>_x<quantity>.jpg`, made unique within one plan. */
  fileName: string;
};

/** A line that cannot be printed, and why (listed in the ZIP's `errors.txt`). */
export type PrintProblem = { line: PrintLine; fileName: string; reason: string };

export type PrintPlan = { jobs: PrintJob[]; problems: PrintProblem[] };

export type RenderedPrint = { body: Buffer; width: number; height: number };

export type PrintStats = {
  /** Print files rendered since start (each costs a full decode of an original). */
  rendered: number;
  /** Renders running right now. */
  active: number;
  failed: number;
};

export interface PrintFiles {
  /**
   * The jobs for `lines`, in their order: the photo is found in the library and the size's
   * inches from the fixed table, the event's `printSizes` or the size's name. Lines whose
   * photo is gone or whose size has no known dimensions come back as problems.
   */
  plan(lines: readonly PrintLine[]): Promise<PrintPlan>;
  /** One print file. Throws when the original cannot be read. */
  render(job: PrintJob): Promise<RenderedPrint>;
  /**
   * A ZIP (stored, not deflated: JPEGs don't shrink) of the plan's files, in order, streamed
   * while it is rendered: a few files ahead at most, however slowly the client reads, and
   * nothing more once the stream is destroyed. The plan's problems, and files that failed to
   * render, are listed in a last entry `errors.txt`.
   */
  zip(plan: PrintPlan): Promise<Readable>;
  stats(): PrintStats;
}
