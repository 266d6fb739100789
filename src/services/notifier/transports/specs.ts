/**
 * Which transports to use, as plain data (it crosses into the mail thread, where create.ts
 * turns it into transports): SendGrid when `SENDGRID_API_KEY` is set, SMTP when `SMTP_URL`
 * is, in that order; with neither, `.eml` files in `DATA_DIR/outbox`. The main thread needs
 * only this, so it never loads nodemailer or @sendgrid/mail (faster start-up).
 */
import path from 'node:path';
import type { Config } from '../../../config/env.js';
import type { TransportName } from './transport.js';

export const OUTBOX_DIR = 'outbox';

export type TransportSpec =
  | { kind: 'sendgrid'; apiKey: string; baseUrl?: string }
  | { kind: 'smtp'; url: string }
  | { kind: 'file'; dir: string };

export function transportSpecs(
  config: Pick<Config, 'SENDGRID_API_KEY' | 'SENDGRID_BASE_URL' | 'SMTP_URL' | 'dataDir'>,
): TransportSpec[] {
  const specs: TransportSpec[] = [];
  if (config.SENDGRID_API_KEY) {
    specs.push({
      kind: 'sendgrid',
      apiKey: config.SENDGRID_API_KEY,
      ...(config.SENDGRID_BASE_URL ? { baseUrl: config.SENDGRID_BASE_URL } : {}),
    });
  }
  if (config.SMTP_URL) specs.push({ kind: 'smtp', url: config.SMTP_URL });
  if (specs.length === 0) specs.push({ kind: 'file', dir: path.join(config.dataDir, OUTBOX_DIR) });
  return specs;
}

export function transportNames(specs: readonly TransportSpec[]): TransportName[] {
  return specs.map((s) => s.kind);
}
