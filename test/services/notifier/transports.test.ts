import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { describe, expect, test } from 'vitest';
import { AllTransportsFailed, sendThroughChain } from '../../../src/services/notifier/chain.js';
import { emlFileName, fileTransport } from '../../../src/services/notifier/transports/file.js';
import { sendgridTransport } from '../../../src/services/notifier/transports/sendgrid.js';
import { smtpTransport } from '../../../src/services/notifier/transports/smtp.js';
import { tempDir } from '../../helpers/build.js';
import { outgoingMail, TINY_PNG } from '../../support/mail-fixtures.js';
import { startSendgridStub } from '../../support/mail-sendgrid-stub.js';
import { startSmtpServer } from '../../support/mail-smtp-server.js';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

describe('SMTP transport', () => {
  test('a real SMTP server receives the message with both attachments', async (t) => {
    const smtp = await startSmtpServer(t);
    const transport = smtpTransport(smtp.url);
    t.onTestFinished(() => transport.close());
    const mail = outgoingMail();
    await transport.send(mail);

    const [got] = await smtp.waitFor(1);
    expect(got?.envelope.from).toBe('photos@example.com');
    expect(got?.envelope.to.sort()).toEqual(['ada@example.com', 'booth@example.com']);
    const parsed = got!.parsed;
    expect(parsed.subject).toBe('Your order AX25-0001: receipt');
    expect(parsed.messageId).toBe(mail.messageId);
    expect(parsed.text?.trim()).toBe('Thank you.');
    expect(parsed.html).toContain('<p>Thank you.</p>');
    expect(parsed.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['label-AX25-0001.png', 'image/png'],
      ['label-AX25-0001.docx', DOCX_TYPE],
    ]);
    expect(parsed.attachments[0]?.content.equals(TINY_PNG)).toBe(true);
  });

  test('a server that is down makes send reject', async (t) => {
    const smtp = await startSmtpServer(t, { listen: false });
    const transport = smtpTransport(smtp.url);
    await expect(transport.send(outgoingMail())).rejects.toThrow(/ECONNREFUSED|connect/i);
  });
});

describe('SendGrid transport', () => {
  test('request shape: POST /v3/mail/send, bearer key, personalizations, base64 attachments', async (t) => {
    const stub = await startSendgridStub(t);
    const transport = sendgridTransport('SG.test-key', { baseUrl: stub.url });
    const mail = outgoingMail();
    await transport.send(mail);

    expect(stub.requests).toHaveLength(1);
    const req = stub.requests[0]!;
    expect(req.method).toBe('POST');
    expect(req.path).toBe('/v3/mail/send');
    expect(req.headers.authorization).toBe('Bearer SG.test-key');
    expect(req.headers['content-type']).toMatch(/^application\/json/);
    expect(req.body.from).toEqual({ email: 'photos@example.com', name: 'Convention Photos' });
    expect(req.body.subject).toBe('Your order AX25-0001: receipt');
    expect(req.body.personalizations).toEqual([
      { to: [{ email: 'ada@example.com', name: 'Ada Lovelace' }], cc: [{ email: 'booth@example.com' }] },
    ]);
    expect(req.body.content).toEqual([
      { type: 'text/plain', value: 'Thank you.' },
      { type: 'text/html', value: '<p>Thank you.</p>' },
    ]);
    expect(req.body.attachments?.map((a) => [a.filename, a.type, a.disposition])).toEqual([
      ['label-AX25-0001.png', 'image/png', 'attachment'],
      ['label-AX25-0001.docx', DOCX_TYPE, 'attachment'],
    ]);
    expect(Buffer.from(req.body.attachments?.[0]?.content ?? '', 'base64').equals(TINY_PNG)).toBe(true);
    expect(req.body.custom_args).toEqual({ jobId: mail.meta.jobId, kind: 'receipt' });
  });

  test('a non-2xx answer rejects with SendGrid’s reason', async (t) => {
    const stub = await startSendgridStub(t);
    stub.respond([500]);
    const transport = sendgridTransport('SG.test-key', { baseUrl: stub.url });
    await expect(transport.send(outgoingMail())).rejects.toThrow();
  });
});

describe('transport chain', () => {
  test('SendGrid failing: SMTP delivers', async (t) => {
    const stub = await startSendgridStub(t);
    stub.respond([503]);
    const smtp = await startSmtpServer(t);
    const chain = [sendgridTransport('SG.k', { baseUrl: stub.url }), smtpTransport(smtp.url)];
    const via = await sendThroughChain(chain, outgoingMail());
    expect(via).toBe('smtp');
    expect(stub.requests).toHaveLength(1);
    expect(await smtp.waitFor(1)).toHaveLength(1);
  });

  test('SendGrid working: SMTP is not used', async (t) => {
    const stub = await startSendgridStub(t);
    const smtp = await startSmtpServer(t);
    const chain = [sendgridTransport('SG.k', { baseUrl: stub.url }), smtpTransport(smtp.url)];
    expect(await sendThroughChain(chain, outgoingMail())).toBe('sendgrid');
    expect(smtp.received).toHaveLength(0);
  });

  test('all failing: the error names each transport', async (t) => {
    const stub = await startSendgridStub(t);
    stub.respond([500]);
    const smtp = await startSmtpServer(t, { listen: false });
    const chain = [sendgridTransport('SG.k', { baseUrl: stub.url }), smtpTransport(smtp.url)];
    const err = await sendThroughChain(chain, outgoingMail()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AllTransportsFailed);
    const failures = (err as AllTransportsFailed).failures;
    expect(failures.map((f) => f.transport)).toEqual(['sendgrid', 'smtp']);
    expect(failures[0]?.error).toContain('stub says 500');
  });
});

describe('.eml file transport', () => {
  test('writes an RFC 822 file that mailparser reads back, attachments included', async (t) => {
    const dir = path.join(await tempDir(t), 'outbox');
    const mail = outgoingMail();
    await fileTransport(dir).send(mail);
    // sent again (after a crash, say): the same file, not a second one
    await fileTransport(dir).send(mail);

    const files = await readdir(dir);
    expect(files).toEqual([emlFileName(mail)]);
    expect(files[0]).toMatch(/^\d{8}T\d{6}Z-receipt-AX25-0001-[0-9a-f-]{36}\.eml$/);
    const raw = await readFile(path.join(dir, files[0]!));
    expect(raw.includes(Buffer.from('\r\n'))).toBe(true);
    const parsed = await simpleParser(raw);
    expect(parsed.subject).toBe('Your order AX25-0001: receipt');
    expect(parsed.from?.value[0]?.address).toBe('photos@example.com');
    const to = Array.isArray(parsed.to) ? parsed.to[0] : parsed.to;
    expect(to?.value[0]).toMatchObject({ address: 'ada@example.com', name: 'Ada Lovelace' });
    expect(parsed.attachments.map((a) => a.filename)).toEqual(['label-AX25-0001.png', 'label-AX25-0001.docx']);
    expect(parsed.attachments[0]?.content.equals(TINY_PNG)).toBe(true);
  });
});
