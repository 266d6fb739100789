/**
 * The hard time budget every remote verifier runs under (ADDRESS_VERIFY_TIMEOUT_MS):
 * one AbortSignal for all of a check's requests (token and lookup), and a race that
 * answers `unverified` when the budget is spent even if a request ignores the signal.
 * Whatever goes wrong inside — network error, 429, 5xx, nonsense — becomes `unverified`.
 */
import { checkLocally } from './local.js';
import type { AddressCheck, AddressVerifier, PostalAddress } from './types.js';

/** A failure that means "could not check", with a reason fit for the log. */
export class VerifierUnavailable extends Error {
  override name = 'VerifierUnavailable';
}

class BudgetExceeded extends Error {
  override name = 'BudgetExceeded';
}

export async function withinBudget(
  timeoutMs: number,
  check: (signal: AbortSignal) => Promise<AddressCheck>,
): Promise<AddressCheck> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const err = new BudgetExceeded(`no answer within ${timeoutMs} ms`);
      controller.abort(err);
      reject(err);
    }, timeoutMs);
  });
  try {
    return await Promise.race([check(controller.signal), expired]);
  } catch (err) {
    return { status: 'unverified', reason: describe(err, controller.signal) };
  } finally {
    clearTimeout(timer);
    expired.catch(() => {});
  }
}

function describe(err: unknown, signal: AbortSignal): string {
  if (signal.aborted && signal.reason instanceof BudgetExceeded) return signal.reason.message;
  if (err instanceof VerifierUnavailable || err instanceof BudgetExceeded) return err.message;
  const e = err as { message?: string; cause?: { code?: string; message?: string } };
  const cause = e.cause?.code ?? e.cause?.message;
  return `request failed: ${e.message ?? String(err)}${cause ? ` (${cause})` : ''}`;
}

/** Reads a JSON body, or throws VerifierUnavailable naming the service. */
export async function readJson(res: Response, service: string): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new VerifierUnavailable(`${service} answered ${res.status} with a body that is not JSON`);
  }
}

/** 429, 5xx and anything else unexpected: the service cannot tell us now. */
export function unavailableStatus(res: Response, service: string): VerifierUnavailable {
  if (res.status === 429) return new VerifierUnavailable(`${service} rate limited the check (429)`);
  return new VerifierUnavailable(`${service} answered ${res.status}`);
}

/** `path` under `base`, keeping any path the base URL has (a proxy's prefix, say). */
export function endpoint(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, '')}${path}`);
}

/**
 * A remote verifier: the local checks first (a malformed address never leaves the process),
 * then `lookup` within the time budget.
 */
export function remoteVerifier(
  name: AddressVerifier['name'],
  timeoutMs: number,
  lookup: (address: PostalAddress, signal: AbortSignal) => Promise<AddressCheck>,
): AddressVerifier {
  return {
    name,
    async verify(input) {
      const local = checkLocally(input);
      if (local.status !== 'valid') return local;
      return withinBudget(timeoutMs, (signal) => lookup(local.address, signal));
    },
  };
}

/** The service's answer: no mail delivered there (DPV "N") is invalid, else the address as it spells it. */
export function deliveryPoint(
  service: string,
  noDelivery: boolean,
  found: { lines: (string | null | undefined)[]; city: string; state: string; zip5: string; plus4?: string | null },
): AddressCheck {
  if (noDelivery)
    return { status: 'invalid', field: 'line1', reason: `${service}: no mail is delivered to this address` };
  const { lines, city, state, zip5, plus4 } = found;
  return {
    status: 'valid',
    address: { line1: lines.filter(Boolean).join(' '), city, state, zip: plus4 ? `${zip5}-${plus4}` : zip5 },
  };
}
