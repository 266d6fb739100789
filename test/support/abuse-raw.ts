/**
 * Raw TCP conversations with a listening app, for what `inject` can't do: malformed HTTP,
 * clients that send (or read) one byte at a time, connections left open.
 */
import net from 'node:net';

export type RawAnswer = {
  /** Everything the server sent before it closed (or before the wait ended). */
  text: string;
  status: number | undefined;
  headers: Record<string, string>;
  body: string;
  /** When the server closed the connection, in ms after it was opened; undefined if it didn't. */
  closedAfterMs: number | undefined;
};

function parse(text: string, closedAfterMs: number | undefined): RawAnswer {
  const end = text.indexOf('\r\n\r\n');
  const head = end >= 0 ? text.slice(0, end) : text;
  const [statusLine = '', ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
  return {
    text,
    status: status ? Number(status) : undefined,
    headers,
    body: end >= 0 ? text.slice(end + 4) : '',
    closedAfterMs,
  };
}

/**
 * Opens a connection, writes `chunks` (waiting `gapMs` between them, stopping once the
 * server has closed), and collects the answer until the server closes or `waitMs` passes.
 */
export async function rawExchange(
  port: number,
  chunks: (string | Buffer)[],
  opts: { gapMs?: number; waitMs?: number } = {},
): Promise<RawAnswer> {
  const socket = net.connect(port, '127.0.0.1');
  const started = Date.now();
  let text = '';
  let closedAfterMs: number | undefined;
  socket.setEncoding('latin1');
  socket.on('data', (d: string) => {
    text += d;
  });
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      closedAfterMs = Date.now() - started;
      resolve();
    }),
  );
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  for (const chunk of chunks) {
    if (closedAfterMs !== undefined || socket.destroyed) break;
    socket.write(chunk);
    if (opts.gapMs) await Promise.race([new Promise((r) => setTimeout(r, opts.gapMs)), closed]);
  }
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([closed, new Promise<void>((r) => (timer = setTimeout(r, opts.waitMs ?? 5_000)))]);
  clearTimeout(timer);
  socket.destroy();
  return parse(text, closedAfterMs);
}

/** A string cut into one-character chunks (a slowloris client's way of sending). */
export function trickle(text: string): string[] {
  return [...text];
}
