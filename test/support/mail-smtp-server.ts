/**
 * A real SMTP server on loopback (`smtp-server`) that parses what it receives with
 * `mailparser`. It can be stopped and started again on the same port, to play an outage.
 *
 *   const smtp = await startSmtpServer(t);          // listening; SMTP_URL = smtp.url
 *   const smtp = await startSmtpServer(t, { listen: false });  // port reserved, down
 *   await smtp.stop(); await smtp.start();
 *   const [mail] = await smtp.waitFor(1);
 */
import net from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { TestContext } from 'vitest';
import { freePort } from './free-port.js';
import { waitUntil } from './wait.js';

type ReceivedMail = {
  envelope: { from: string; to: string[] };
  raw: Buffer;
  parsed: ParsedMail;
};

export type SmtpTestServer = {
  port: number;
  url: string;
  received: ReceivedMail[];
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once `count` messages have arrived; ended by the test's timeout (`timeoutMs` only outside a test). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
};

export async function startSmtpServer(t: TestContext, opts: { listen?: boolean } = {}): Promise<SmtpTestServer> {
  const port = await freePort();
  const received: ReceivedMail[] = [];
  let server: SMTPServer | null = null;

  const start = async () => {
    if (server) return;
    const s = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      size: 20 * 1024 * 1024,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          const raw = Buffer.concat(chunks);
          simpleParser(raw)
            .then((parsed) => {
              received.push({
                envelope: {
                  from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                  to: session.envelope.rcptTo.map((r) => r.address),
                },
                raw,
                parsed,
              });
              callback();
            })
            .catch((err: Error) => callback(err));
        });
      },
    });
    await new Promise<void>((resolve, reject) => {
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
    });
    server = s;
  };

  const stop = async () => {
    const s = server;
    server = null;
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  if (opts.listen !== false) await start();
  t.onTestFinished(stop);

  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    start,
    stop,
    async waitFor(count, timeoutMs = 10_000) {
      await waitUntil(
        () => received.length >= count,
        () => `${count} messages (got ${received.length})`,
        timeoutMs,
      );
      return received.slice(0, count);
    },
  };
}

export type StallingSmtpServer = {
  /** Resolves once a client has connected and sent its greeting (EHLO): its delivery is stuck. */
  stuck(): Promise<void>;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
};

/**
 * An SMTP server that greets and then never answers again: a client's delivery hangs until
 * its socket timeout. Listens on `port` (e.g. the reserved port of a server started with
 * `listen: false`, which can take over once this one is closed).
 */
export async function startStallingSmtpServer(t: TestContext, port: number): Promise<StallingSmtpServer> {
  const sockets = new Set<net.Socket>();
  let onStuck: () => void = () => {};
  const stuck = new Promise<void>((resolve) => {
    onStuck = resolve;
  });
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.write('220 stalling.test ESMTP\r\n');
    socket.once('data', () => onStuck());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    for (const s of sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  t.onTestFinished(close);
  return { stuck: () => stuck, close };
}
