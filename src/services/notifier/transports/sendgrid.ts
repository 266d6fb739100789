/**
 * SendGrid v3 Mail Send through `@sendgrid/mail` (`SENDGRID_API_KEY`). Each transport has
 * its own MailService and HTTP client, so nothing is shared between app instances.
 * `setApiKey` resets the client's base URL, so `SENDGRID_BASE_URL` is applied after it.
 * Success is 202 with an empty body; anything else rejects.
 */
import { MailService } from '@sendgrid/mail';
import type { OutgoingMail } from '../message.js';
import type { MailTransport } from './transport.js';

type SgClient = { setDefaultRequest(key: string, value: unknown): unknown };

const email = (a: { name: string; address: string }) => (a.name ? { email: a.address, name: a.name } : a.address);

export function sendgridTransport(apiKey: string, opts: { baseUrl?: string; timeoutMs?: number } = {}): MailTransport {
  const service = new MailService();
  service.setApiKey(apiKey);
  const client = (service as unknown as { client: SgClient }).client;
  if (opts.baseUrl) client.setDefaultRequest('baseUrl', opts.baseUrl);
  client.setDefaultRequest('timeout', opts.timeoutMs ?? 15_000);
  // Never follow a redirect with the API key to somewhere else.
  client.setDefaultRequest('maxRedirects', 0);

  return {
    name: 'sendgrid',
    async send(mail: OutgoingMail, signal?: AbortSignal) {
      signal?.throwIfAborted();
      const [response] = await service.send({
        from: email(mail.from),
        to: mail.to.map(email),
        cc: mail.cc.length > 0 ? mail.cc.map(email) : undefined,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        attachments: mail.attachments.map((a) => ({
          content: a.content.toString('base64'),
          filename: a.filename,
          type: a.contentType,
          disposition: 'attachment',
        })),
        customArgs: { jobId: mail.meta.jobId, kind: mail.meta.kind },
      });
      if (response.statusCode < 200 || response.statusCode >= 300) {
        throw new Error(`SendGrid answered ${response.statusCode}`);
      }
    },
    async close() {},
  };
}
