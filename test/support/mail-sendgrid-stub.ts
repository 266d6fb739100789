/**
 * A stand-in for the SendGrid v3 API on loopback: records every request (method, path,
 * headers, JSON body) and answers 202 with an empty body, like SendGrid, unless the test
 * scripted other statuses. Point `SENDGRID_BASE_URL` at `stub.url`.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'vitest';
import { HeldAnswers } from './held-answers.js';

type SendgridRequest = {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: SendgridMailBody;
};

/** The fields of a v3 /mail/send body that the tests read. */
type SendgridMailBody = {
  from: { email: string; name?: string };
  subject: string;
  personalizations: { to: { email: string; name?: string }[]; cc?: { email: string; name?: string }[] }[];
  content: { type: string; value: string }[];
  attachments?: { content: string; filename: string; type: string; disposition: string }[];
  custom_args?: Record<string, string>;
};

export type SendgridStub = {
  url: string;
  requests: SendgridRequest[];
  /** Statuses to answer in turn (the last repeats); default 202. */
  respond(statuses: number[]): void;
  /**
   * From now on, keeps each request unanswered (a transport that hangs) until `release()`,
   * which answers the held ones with the scripted statuses. `held` resolves once `n` are held.
   */
  hold(): void;
  held(n?: number): Promise<void>;
  release(): void;
  /** Requests answered so far. */
  readonly answered: number;
  close(): Promise<void>;
};

export async function startSendgridStub(t: TestContext): Promise<SendgridStub> {
  const requests: SendgridRequest[] = [];
  let statuses = [202];
  const gate = new HeldAnswers();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: (text ? JSON.parse(text) : {}) as SendgridMailBody,
      });
      const n = requests.length;
      gate.answer(() => {
        if (res.destroyed) return false; // the client gave up waiting
        const status = statuses.length > 1 ? (statuses.shift() as number) : (statuses[0] ?? 202);
        if (status === 202) {
          res.writeHead(202, { 'x-message-id': `stub-${n}` });
          res.end();
        } else {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ errors: [{ message: `stub says ${status}`, field: null, help: null }] }));
        }
        return true;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const close = async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  t.onTestFinished(close);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    respond(next) {
      statuses = [...next];
    },
    hold: () => gate.hold(),
    held: (n) => gate.held(n),
    release: () => gate.release(),
    get answered() {
      return gate.answered;
    },
    close,
  };
}
