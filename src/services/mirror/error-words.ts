/** A Sheets failure in words an operator can act on (the admin dashboard shows it as it is). */
import { isAppError } from '../../errors/catalogue.js';
import { statusOf } from './sheets/retry.js';

export function describeSheetsError(err: unknown, ctx: { spreadsheetId: string; email?: string }): string {
  // The record's own errors (it is unreachable, or refused a write) are not the sheet's.
  if (isAppError(err)) return `The order record could not be read or written (${err.message}); the mirror retries`;
  const status = statusOf(err);
  const detail = String((err as Error)?.message ?? err).slice(0, 200);
  if (status === undefined) {
    const code = (err as { code?: unknown }).code;
    return `Google Sheets could not be reached (${typeof code === 'string' ? code : detail}): the venue's connection or Google may be down; orders are kept and will be written when it answers again`;
  }
  if (status === 429)
    return 'Google Sheets refused more writes for now (quota exceeded); the mirror slows down and retries';
  if (status >= 500) return `Google Sheets answered with an error (HTTP ${status}: ${detail}); the mirror retries`;
  if (status === 401)
    return `Google refused the service account's credentials (GOOGLE_APPLICATION_CREDENTIALS): ${detail}`;
  if (status === 403) {
    return `The service account${ctx.email ? ` ${ctx.email}` : ''} may not edit the spreadsheet: share it with that address as an Editor`;
  }
  if (status === 404) return `The spreadsheet "${ctx.spreadsheetId}" was not found: check GOOGLE_SHEETS_ID`;
  return `Google Sheets refused a request (HTTP ${status}: ${detail})`;
}
