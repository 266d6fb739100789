/** The mail thread's side of transports/specs.ts: each spec made into a transport. */
import { fileTransport } from './file.js';
import { sendgridTransport } from './sendgrid.js';
import { smtpTransport } from './smtp.js';
import type { TransportSpec } from './specs.js';
import type { MailTransport } from './transport.js';

export function createTransport(spec: TransportSpec): MailTransport {
  switch (spec.kind) {
    case 'sendgrid':
      return sendgridTransport(spec.apiKey, { baseUrl: spec.baseUrl });
    case 'smtp':
      return smtpTransport(spec.url);
    case 'file':
      return fileTransport(spec.dir);
  }
}
