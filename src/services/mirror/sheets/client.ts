/**
 * The googleapis Sheets client, set up as SPEC §10 says: a service account's key
 * (GOOGLE_APPLICATION_CREDENTIALS) signs its own bearer tokens (JWT access with the
 * spreadsheets scope), so no token server is ever called; GOOGLE_SHEETS_ROOT_URL points
 * the client elsewhere (the test emulator). gaxios' own retries are off: `retry.ts` retries
 * what is safe to repeat, and appends are never blindly repeated.
 */
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { google, type sheets_v4 } from 'googleapis';
import { z } from 'zod';
import { ConfigError } from '../../../config/env.js';
import { statusOf } from './retry.js';

const SHEETS_SCOPE = 'https://www.googleapis.com/auth/spreadsheets';

export type ServiceAccount = { email: string; privateKey: string };

const KeyFile = z.object({
  type: z.string().optional(),
  client_email: z.email(),
  private_key: z.string().min(1),
});

/** Reads and checks the key file; a ConfigError naming GOOGLE_APPLICATION_CREDENTIALS otherwise. */
export async function loadServiceAccount(file: string): Promise<ServiceAccount> {
  const problem = (what: string) => new ConfigError(`GOOGLE_APPLICATION_CREDENTIALS: ${what}`);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw problem(`cannot read the service-account key file "${file}" (${(err as NodeJS.ErrnoException).code ?? err})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw problem(`"${file}" is not JSON; expected the service-account key downloaded from Google Cloud`);
  }
  const parsed = KeyFile.safeParse(json);
  if (!parsed.success) {
    throw problem(`"${file}" is not a service-account key (it needs "client_email" and "private_key")`);
  }
  if (parsed.data.type !== undefined && parsed.data.type !== 'service_account') {
    throw problem(`"${file}" holds "${parsed.data.type}" credentials; a service-account key is needed`);
  }
  try {
    createPrivateKey(parsed.data.private_key);
  } catch (err) {
    throw problem(`the private_key in "${file}" cannot be read (${(err as Error).message})`);
  }
  return { email: parsed.data.client_email, privateKey: parsed.data.private_key };
}

export function createSheetsApi(
  account: ServiceAccount,
  opts: { rootUrl?: string; timeoutMs: number },
): sheets_v4.Sheets {
  const auth = new google.auth.JWT({ email: account.email, key: account.privateKey, scopes: [SHEETS_SCOPE] });
  // Self-signed JWT carrying the scope: no call to oauth2.googleapis.com (SPEC §10).
  auth.useJWTAccessWithScope = true;
  return google.sheets({
    version: 'v4',
    auth,
    ...(opts.rootUrl ? { rootUrl: opts.rootUrl } : {}),
    retry: false,
    timeout: opts.timeoutMs,
  });
}

/** Turns a failure to open the spreadsheet at start-up into a message naming the variable to fix. */
function openFailure(
  err: unknown,
  ctx: { spreadsheetId: string; email: string; rootUrl: string | undefined },
): ConfigError {
  const status = statusOf(err);
  const detail = (err as Error).message?.slice(0, 200) ?? String(err);
  if (status === 404 || status === 400) {
    return new ConfigError(
      `GOOGLE_SHEETS_ID: spreadsheet "${ctx.spreadsheetId}" was not found (use the id from its URL, docs.google.com/spreadsheets/d/<id>/edit)`,
    );
  }
  if (status === 403) {
    return new ConfigError(
      `GOOGLE_SHEETS_ID: the service account ${ctx.email} (GOOGLE_APPLICATION_CREDENTIALS) may not open spreadsheet "${ctx.spreadsheetId}": share the spreadsheet with that address as an Editor (${detail})`,
    );
  }
  if (status === 401) {
    return new ConfigError(
      `GOOGLE_APPLICATION_CREDENTIALS: Google refused the credentials of ${ctx.email} (is the key revoked or the Sheets API not enabled?): ${detail}`,
    );
  }
  const where = ctx.rootUrl ? `${ctx.rootUrl} (GOOGLE_SHEETS_ROOT_URL)` : 'https://sheets.googleapis.com';
  return new ConfigError(
    `GOOGLE_SHEETS_ID: cannot open spreadsheet "${ctx.spreadsheetId}" through the Sheets API at ${where}: ${status ? `HTTP ${status} ` : ''}${detail}`,
  );
}
