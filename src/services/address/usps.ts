/**
 * The `usps` verifier: USPS Addresses API v3 (https://developers.usps.com/addressesv3), with
 * an OAuth2 client-credentials token cached until a minute before it expires and shared by
 * concurrent checks; a 401 on a lookup (token revoked early) fetches a new one once.
 */
import { z } from 'zod';
import { deliveryPoint, endpoint, readJson, remoteVerifier, unavailableStatus, VerifierUnavailable } from './budget.js';
import type { AddressCheck, AddressVerifier, PostalAddress } from './types.js';

export type UspsOptions = {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  /** For tests: the clock token expiry is measured against. */
  now?: () => number;
};

/** Tokens are renewed this long before USPS says they expire. */
export const TOKEN_RENEW_MARGIN_MS = 60_000;

const TokenResponse = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
});

const AddressResponse = z.object({
  address: z.object({
    streetAddress: z.string().min(1),
    secondaryAddress: z.string().nullish(),
    city: z.string().min(1),
    state: z.string().min(2),
    ZIPCode: z.string().regex(/^\d{5}$/),
    ZIPPlus4: z.string().nullish(),
  }),
  additionalInfo: z.object({ DPVConfirmation: z.string().nullish() }).partial().nullish(),
});

const ErrorResponse = z.object({
  error: z.object({
    message: z.string().optional(),
    errors: z.array(z.object({ detail: z.string().optional() })).optional(),
  }),
});

/** USPS error messages name the part they did not like ("Invalid Zip Code.", "Invalid City."). */
function fieldOf(message: string): keyof PostalAddress {
  if (/zip/i.test(message)) return 'zip';
  if (/city/i.test(message)) return 'city';
  if (/state/i.test(message)) return 'state';
  return 'line1';
}

class TokenCache {
  private token: { value: string; renewAt: number } | undefined;
  private inFlight: Promise<string> | undefined;

  constructor(private readonly opts: UspsOptions) {}

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  async get(): Promise<string> {
    if (this.token && this.now() < this.token.renewAt) return this.token.value;
    // One request for everyone waiting; it has its own budget so that one caller giving
    // up does not abort the token the others are waiting for.
    this.inFlight ??= this.fetchToken().finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Forget `value` (USPS refused it); the next `get` asks for a new one. */
  invalidate(value: string): void {
    if (this.token?.value === value) this.token = undefined;
  }

  private async fetchToken(): Promise<string> {
    const res = await fetch(endpoint(this.opts.baseUrl, '/oauth2/v3/token'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({
        grant_type: 'client_credentials',
        client_id: this.opts.clientId,
        client_secret: this.opts.clientSecret,
        scope: 'addresses',
      }),
      signal: AbortSignal.timeout(this.opts.timeoutMs),
    });
    if (res.status === 400 || res.status === 401 || res.status === 403) {
      throw new VerifierUnavailable(`USPS refused the client credentials (${res.status})`);
    }
    if (!res.ok) throw unavailableStatus(res, 'USPS OAuth');
    const parsed = TokenResponse.safeParse(await readJson(res, 'USPS OAuth'));
    if (!parsed.success) throw new VerifierUnavailable('USPS OAuth answered without an access_token');
    const lifetimeMs = (parsed.data.expires_in ?? 3600) * 1000;
    const renewAt = this.now() + Math.max(lifetimeMs - TOKEN_RENEW_MARGIN_MS, lifetimeMs / 2);
    this.token = { value: parsed.data.access_token, renewAt };
    return parsed.data.access_token;
  }
}

export function createUspsVerifier(opts: UspsOptions): AddressVerifier {
  const tokens = new TokenCache(opts);

  async function lookup(address: PostalAddress, signal: AbortSignal): Promise<AddressCheck> {
    const url = endpoint(opts.baseUrl, '/addresses/v3/address');
    url.searchParams.set('streetAddress', address.line1);
    url.searchParams.set('city', address.city);
    url.searchParams.set('state', address.state);
    url.searchParams.set('ZIPCode', address.zip.slice(0, 5));
    if (address.zip.length === 10) url.searchParams.set('ZIPPlus4', address.zip.slice(6));

    let res: Response | undefined;
    for (let attempt = 0; attempt < 2; attempt++) {
      const token = await tokens.get();
      res = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' }, signal });
      if (res.status !== 401) break;
      await res.body?.cancel();
      tokens.invalidate(token);
    }
    if (!res) throw new VerifierUnavailable('USPS was not asked');
    if (res.status === 400 || res.status === 404) {
      const body = ErrorResponse.safeParse(await readJson(res, 'USPS'));
      const message = body.success
        ? (body.data.error.errors?.[0]?.detail ?? body.data.error.message ?? 'Address Not Found')
        : 'Address Not Found';
      return { status: 'invalid', field: fieldOf(message), reason: `USPS: ${message}` };
    }
    if (!res.ok) throw unavailableStatus(res, 'USPS');
    const parsed = AddressResponse.safeParse(await readJson(res, 'USPS'));
    if (!parsed.success) throw new VerifierUnavailable('USPS answered 200 without a usable address');
    const { address: found, additionalInfo } = parsed.data;
    return deliveryPoint('USPS', additionalInfo?.DPVConfirmation === 'N', {
      lines: [found.streetAddress, found.secondaryAddress],
      city: found.city,
      state: found.state,
      zip5: found.ZIPCode,
      plus4: found.ZIPPlus4,
    });
  }

  return remoteVerifier('usps', opts.timeoutMs, lookup);
}
