/**
 * A local stand-in for a CAPTCHA provider's siteverify endpoint (Turnstile, hCaptcha,
 * reCAPTCHA all speak the same protocol): records every form it receives and answers as
 * the test says. Loopback only; closed (hanging requests included) when the test ends.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'vitest';

type StubAnswer =
  | { kind: 'json'; status?: number; body: unknown }
  | { kind: 'text'; status: number; body: string }
  | { kind: 'hang' };

type ReceivedForm = {
  method: string;
  path: string;
  contentType: string | undefined;
  form: Record<string, string>;
};

export type SiteverifyStub = {
  url: string;
  received: ReceivedForm[];
  /** Decides each answer from the form received (default: success for token "good"). */
  answer: (form: Record<string, string>) => StubAnswer;
};

export async function startSiteverifyStub(t: TestContext): Promise<SiteverifyStub> {
  const stub: SiteverifyStub = {
    url: '',
    received: [],
    answer: (form) =>
      form.response === 'good'
        ? { kind: 'json', body: { success: true, 'error-codes': [] } }
        : { kind: 'json', body: { success: false, 'error-codes': ['invalid-input-response'] } },
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const form = Object.fromEntries(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    stub.received.push({
      method: req.method ?? '',
      path: req.url ?? '',
      contentType: req.headers['content-type'],
      form,
    });
    const a = stub.answer(form);
    if (a.kind === 'hang') return; // never answers
    if (a.kind === 'text') {
      res.writeHead(a.status, { 'content-type': 'text/html' }).end(a.body);
      return;
    }
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(a.body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  stub.url = `http://127.0.0.1:${port}/siteverify`;
  t.onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return stub;
}
