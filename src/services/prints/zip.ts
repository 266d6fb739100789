/**
 * A ZIP of print files, written while they are rendered, with the client setting the pace.
 * Entries are stored, not deflated (JPEG does not shrink). Renders run at most `window`
 * entries ahead, and entries are fed as streams, so a slow client holds the server to
 * `window` files plus socket buffers, never the whole archive. When the client goes away no
 * further render starts and unwritten entries are destroyed.
 * zip-stream was picked by measurement over archiver and yazl (least event-loop CPU); it is
 * loaded on the first ZIP, not at start-up (about 0.1 s of CPU).
 */
import { Readable } from 'node:stream';

export type ZipSource = {
  count: number;
  /** The name of entry `i` (known before it is rendered). */
  name(i: number): string;
  /**
   * Renders entry `i`; the signal is aborted when the ZIP is abandoned. A stream is destroyed
   * if the ZIP is abandoned before it is written.
   */
  body(i: number, signal: AbortSignal): Promise<Buffer | Readable>;
};

export type ZipFailure = { name: string; reason: string };

const SLICE = 256 * 1024;

/** An entry's bytes as the writer takes them: a stream as it is, a buffer in SLICE pieces. */
function entryStream(body: Buffer | Readable): Readable {
  if (!Buffer.isBuffer(body)) return body;
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; at += SLICE) parts.push(body.subarray(at, at + SLICE));
  return Readable.from(parts, { objectMode: false });
}

/**
 * The ZIP stream of `source`'s entries, then `errors.txt` listing `known` problems and the
 * entries that failed to render (omitted when there are none).
 */
export async function streamZip(
  source: ZipSource,
  opts: { window: number; known?: readonly ZipFailure[]; onFailure?: (name: string, err: unknown) => void },
): Promise<Readable> {
  const { default: ZipStream } = await import('zip-stream');
  const zip = new ZipStream({ store: true });
  const abandon = new AbortController();
  const closed = new Promise<void>((resolve) => {
    zip.once('close', () => {
      abandon.abort();
      resolve();
    });
  });
  const date = new Date();

  /** Resolves when the entry has been taken by the writer, or when the ZIP was abandoned. */
  function add(body: Readable | Buffer, name: string): Promise<void> {
    const done = new Promise<void>((resolve, reject) => {
      zip.entry(body, { name, date, store: true }, (err) => (err ? reject(err) : resolve()));
    });
    return Promise.race([done, closed]);
  }

  type Outcome = { ok: true; body: Buffer | Readable } | { ok: false; reason: string };
  const started = new Map<number, Promise<Outcome>>();
  const discard = (o: Outcome) => {
    if (o.ok && !Buffer.isBuffer(o.body)) o.body.destroy();
  };
  // Entries rendered (or still rendering) but not written when the ZIP is abandoned.
  abandon.signal.addEventListener('abort', () => {
    for (const outcome of started.values()) void outcome.then(discard);
  });
  function start(i: number): void {
    if (i >= source.count || started.has(i) || abandon.signal.aborted) return;
    const outcome = source.body(i, abandon.signal).then(
      (body): Outcome => ({ ok: true, body }),
      (err: unknown): Outcome => {
        if (!abandon.signal.aborted) opts.onFailure?.(source.name(i), err);
        return { ok: false, reason: err instanceof Error ? err.message : String(err) };
      },
    );
    started.set(i, outcome);
  }

  async function write(): Promise<void> {
    const failures: ZipFailure[] = [...(opts.known ?? [])];
    for (let i = 0; i < source.count; i++) {
      for (let k = i; k < i + opts.window; k++) start(k);
      const outcome = await (started.get(i) as Promise<Outcome>);
      if (abandon.signal.aborted) return;
      started.delete(i);
      if (outcome.ok) await add(entryStream(outcome.body), source.name(i));
      else failures.push({ name: source.name(i), reason: outcome.reason });
      if (abandon.signal.aborted) return discard(outcome);
    }
    if (failures.length > 0) await add(Buffer.from(errorsText(failures)), 'errors.txt');
    if (!abandon.signal.aborted) zip.finish();
  }

  write().catch((err: unknown) => zip.destroy(err instanceof Error ? err : new Error(String(err))));
  return zip as unknown as Readable;
}

function errorsText(failures: readonly ZipFailure[]): string {
  return [
    `${failures.length} print file${failures.length === 1 ? ' is' : 's are'} missing from this ZIP:`,
    '',
    ...failures.map((f) => `${f.name}: ${f.reason}`),
    '',
  ].join('\r\n');
}
