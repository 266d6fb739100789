/** The admin token, kept for this tab only (sessionStorage), and sent as `Authorization: Bearer`. */
import { ApiError, setAdminTokenSource } from '../lib/api.js';
import { memory, persistent } from '../lib/store.js';

export const adminToken = persistent<string | null>('cps.admin.token', null, { kind: 'session' });
/** Why the visitor was signed out (a rejected token), shown on the sign-in form. */
export const signOutReason = memory<string>('');

setAdminTokenSource(() => adminToken.get());

export function signOut(reason = ''): void {
  signOutReason.set(reason);
  adminToken.set(null);
}

/** Any admin call that answers 401 ends the session (the token was revoked or mistyped). */
export function onAdminError(err: unknown): Error {
  if (err instanceof ApiError && err.status === 401)
    signOut('Your admin token was not accepted. Please sign in again.');
  return err as Error;
}
