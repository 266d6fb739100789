/**
 * The googleapis Sheets client (docs/google-sheets.md): a service account's key
 * (GOOGLE_APPLICATION_CREDENTIALS) signs its own bearer tokens (JWT access with the
 * spreadsheets scope), so no token server is ever called; GOOGLE_SHEETS_ROOT_URL points
 * the client elsewhere (the test emulator). gaxios' own retries are off: `retry.ts` retries
 * what is safe to repeat, and appends are never blindly repeated.
 */
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
// The Sheets API's own module of googleapis, not the package's index: the index loads all of
// Google's ~300 APIs (1.4 s against 0.12 s) and gives tsc ~900 declaration files to read.
import { auth as googleAuth, sheets, type sheets_v4 } from 'googleapis/build/src/apis/sheets/index.js';
import { z } from 'zod';
import { ConfigError } from '../../../config/env.js';

/** The Sheets v4 API as googleapis gives it: what order-tab.ts calls. */
export type SheetsApi = sheets_v4.Sheets;

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

export function createSheetsApi(account: ServiceAccount, opts: { rootUrl?: string; timeoutMs: number }): SheetsApi {
  const auth = new googleAuth.JWT({ email: account.email, key: account.privateKey, scopes: [SHEETS_SCOPE] });
  // Self-signed JWT carrying the scope: no call to oauth2.googleapis.com (docs/google-sheets.md).
  auth.useJWTAccessWithScope = true;
  return sheets({
    version: 'v4',
    auth,
    ...(opts.rootUrl ? { rootUrl: opts.rootUrl } : {}),
    retry: false,
    timeout: opts.timeoutMs,
  });
}
