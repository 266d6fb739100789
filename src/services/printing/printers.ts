/**
 * The printers of PRINTERS, each with its IPP client: their state read on demand, and which
 * one takes a print of a given size (docs/contract.md, "Printing at the booth").
 */
import { holdsSize, type PrinterEntry, publicPrinterUrl } from '../../domain/printers.js';
import { appError } from '../../errors/catalogue.js';
import { type IppClient, ippClient, PrinterRefused, type PrinterReport, PrinterUnreachable } from './ipp-client.js';
import type { PrinterView } from './types.js';

export type Printer = { entry: PrinterEntry; client: IppClient };

/** A printer and what it said: its report, or why it could not be read. */
export type PrinterReading = { printer: Printer; report: PrinterReport | null; problem: string };

/** The order auto-choice prefers printers in: idle first, then busy, then stopped ones. */
const PREFERENCE = { idle: 0, processing: 1, stopped: 2 } as const;

export class PrinterSet {
  readonly all: Printer[];

  constructor(entries: readonly PrinterEntry[], timeoutMs: number) {
    this.all = entries.map((entry) => ({ entry, client: ippClient(entry, { timeoutMs }) }));
  }

  has(name: string): boolean {
    return this.all.some((p) => p.entry.name.toLowerCase() === name.toLowerCase());
  }

  byName(name: string): Printer {
    const found = this.all.find((p) => p.entry.name.toLowerCase() === name.toLowerCase());
    if (!found) {
      throw appError('PRINTER_NOT_FOUND', {
        message: `No printer is named ${name}`,
        details: { printer: name, printers: this.all.map((p) => p.entry.name) },
      });
    }
    return found;
  }

  /** The printers holding `size`, in PRINTERS order; none is PRINTER_LACKS_SIZE. */
  forSize(size: string, named?: string): Printer[] {
    const candidates = named === undefined ? this.all : [this.byName(named)];
    const holding = candidates.filter((p) => holdsSize(p.entry, size));
    if (holding.length === 0) {
      throw appError('PRINTER_LACKS_SIZE', {
        message:
          named === undefined
            ? `No printer holds ${size} paper${this.all.length === 0 ? ' (PRINTERS is not set)' : ''}`
            : `${candidates[0]?.entry.name} holds ${candidates[0]?.entry.sizes.join(', ')}, not ${size}`,
        details: { size, printers: candidates.map((p) => ({ name: p.entry.name, sizes: p.entry.sizes })) },
      });
    }
    return holding;
  }

  async read(printer: Printer): Promise<PrinterReading> {
    try {
      return { printer, report: await printer.client.status(), problem: '' };
    } catch (err) {
      if (err instanceof PrinterUnreachable || err instanceof PrinterRefused) {
        return { printer, report: null, problem: err.message };
      }
      throw err;
    }
  }

  /**
   * Of the printers given (holding the size), the one to print on: the first idle one, else
   * the first busy one, else the first stopped one (its jobs wait in its queue), among those
   * that answer and accept jobs. None answers: PRINTER_UNAVAILABLE.
   */
  async choose(candidates: readonly Printer[]): Promise<Printer> {
    const readings = await Promise.all(candidates.map((p) => this.read(p)));
    const ready = readings
      .filter((r) => r.report?.acceptingJobs)
      .sort((a, b) => PREFERENCE[a.report?.state ?? 'stopped'] - PREFERENCE[b.report?.state ?? 'stopped']);
    const chosen = ready[0];
    if (chosen) return chosen.printer;
    throw appError('PRINTER_UNAVAILABLE', {
      message:
        candidates.length === 1
          ? `${candidates[0]?.entry.name} does not answer or does not accept jobs`
          : `None of ${candidates.map((p) => p.entry.name).join(', ')} answers or accepts jobs`,
      details: readings.map((r) => ({
        printer: r.printer.entry.name,
        problem: r.problem || (r.report?.acceptingJobs === false ? 'not accepting jobs' : ''),
      })),
      headers: { 'Retry-After': '10' },
    });
  }

  view(reading: PrinterReading): PrinterView {
    const { entry } = reading.printer;
    const base = { name: entry.name, url: publicPrinterUrl(entry.url), sizes: entry.sizes };
    const r = reading.report;
    if (!r) {
      return {
        ...base,
        state: 'unreachable',
        stateReasons: [],
        message: reading.problem,
        queuedJobs: null,
        acceptingJobs: null,
        mediaReady: [],
      };
    }
    return {
      ...base,
      state: r.state,
      stateReasons: r.stateReasons,
      message: r.stateMessage,
      queuedJobs: r.queuedJobs,
      acceptingJobs: r.acceptingJobs,
      mediaReady: r.mediaReady,
    };
  }

  close(): void {
    for (const p of this.all) p.client.close();
  }
}
