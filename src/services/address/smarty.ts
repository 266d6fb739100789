/**
 * The `smarty` verifier: Smarty US Street Address API
 * (https://www.smarty.com/docs/cloud/us-street-api). No candidate, or DPV match code N, is
 * invalid; 401/402 (our credentials or plan), 413, 429 and 5xx are unverified.
 */
import { z } from 'zod';
import { deliveryPoint, endpoint, readJson, remoteVerifier, unavailableStatus, VerifierUnavailable } from './budget.js';
import type { AddressCheck, AddressVerifier, PostalAddress } from './types.js';

export type SmartyOptions = { baseUrl: string; authId: string; authToken: string; timeoutMs: number };

const Candidate = z.object({
  delivery_line_1: z.string().min(1),
  delivery_line_2: z.string().nullish(),
  components: z.object({
    city_name: z.string().min(1),
    state_abbreviation: z.string().min(2),
    zipcode: z.string().regex(/^\d{5}$/),
    plus4_code: z.string().nullish(),
  }),
  analysis: z.object({ dpv_match_code: z.string().nullish() }).partial().nullish(),
});
const Candidates = z.array(z.unknown());

export function createSmartyVerifier(opts: SmartyOptions): AddressVerifier {
  async function lookup(address: PostalAddress, signal: AbortSignal): Promise<AddressCheck> {
    const url = endpoint(opts.baseUrl, '/street-address');
    url.searchParams.set('auth-id', opts.authId);
    url.searchParams.set('auth-token', opts.authToken);
    url.searchParams.set('street', address.line1);
    url.searchParams.set('city', address.city);
    url.searchParams.set('state', address.state);
    url.searchParams.set('zipcode', address.zip);
    url.searchParams.set('candidates', '1');
    const res = await fetch(url, { headers: { accept: 'application/json' }, signal });
    if (res.status === 401 || res.status === 402 || res.status === 403) {
      throw new VerifierUnavailable(`Smarty refused our credentials or plan (${res.status})`);
    }
    if (!res.ok) throw unavailableStatus(res, 'Smarty');
    const list = Candidates.safeParse(await readJson(res, 'Smarty'));
    if (!list.success) throw new VerifierUnavailable('Smarty answered 200 with something other than a list');
    if (list.data.length === 0) {
      return { status: 'invalid', field: 'line1', reason: 'Smarty: no such address' };
    }
    const candidate = Candidate.safeParse(list.data[0]);
    if (!candidate.success) throw new VerifierUnavailable('Smarty answered with a candidate it could not be read');
    const { delivery_line_1, delivery_line_2, components: c, analysis } = candidate.data;
    return deliveryPoint('Smarty', analysis?.dpv_match_code === 'N', {
      lines: [delivery_line_1, delivery_line_2],
      city: c.city_name,
      state: c.state_abbreviation,
      zip5: c.zipcode,
      plus4: c.plus4_code,
    });
  }

  return remoteVerifier('smarty', opts.timeoutMs, lookup);
}
