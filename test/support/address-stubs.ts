/**
 * Local stand-ins for the USPS Addresses API v3 (with its OAuth token endpoint) and the
 * Smarty US Street API, on loopback. They record every request and answer like the real
 * services for a small set of known addresses; `failWith` makes them misbehave (429, 5xx,
 * hang forever, ...). Closed, hanging requests included, when the test finishes.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestContext } from 'vitest';

type StubRequest = {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingMessage['headers'];
  body: string;
};

type StubAnswer = { status: number; body?: unknown; raw?: string } | 'hang';

type Handler = (req: StubRequest) => StubAnswer;

async function startStub(t: TestContext, handler: Handler): Promise<{ url: string; requests: StubRequest[] }> {
  const requests: StubRequest[] = [];
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stub');
    const request: StubRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    requests.push(request);
    const answer = handler(request);
    if (answer === 'hang') return; // never answers
    const text = answer.raw ?? (answer.body === undefined ? '' : JSON.stringify(answer.body));
    res.writeHead(answer.status, { 'content-type': answer.raw ? 'text/html' : 'application/json' }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  t.onTestFinished(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { url: `http://127.0.0.1:${port}`, requests };
}

/** A known address: what the customer typed (upper-cased street as the key) → the standard form. */
type KnownAddress = {
  street: string;
  secondary?: string;
  city: string;
  state: string;
  zip5: string;
  plus4: string;
  /** DPV confirmation: Y (default), D, S or N. */
  dpv?: string;
};

const WHITE_HOUSE: KnownAddress = {
  street: '1600 PENNSYLVANIA AVE NW',
  city: 'WASHINGTON',
  state: 'DC',
  zip5: '20500',
  plus4: '0005',
};

const EMPIRE_STATE: KnownAddress = {
  street: '350 5TH AVE',
  secondary: 'STE 300',
  city: 'NEW YORK',
  state: 'NY',
  zip5: '10118',
  plus4: '0110',
};

/** Known to the stubs by the street as customers type it, lower-cased. */
const DIRECTORY: Record<string, KnownAddress> = {
  '1600 pennsylvania avenue nw': WHITE_HOUSE,
  '1600 pennsylvania ave nw': WHITE_HOUSE,
  '350 fifth avenue suite 300': EMPIRE_STATE,
  '1 vacant lot rd': {
    street: '1 VACANT LOT RD',
    city: 'SPRINGFIELD',
    state: 'IL',
    zip5: '62701',
    plus4: '',
    dpv: 'N',
  },
};

export type UspsStub = {
  url: string;
  requests: StubRequest[];
  /** Token requests received, and tokens handed out (tok-1, tok-2, ...). */
  tokenRequests: () => number;
  /** Takes back every token handed out so far (the next lookup with one gets 401). */
  revokeTokens: () => void;
  /** Answer every address lookup (or the token request) this way instead. */
  failWith: { address?: StubAnswer; token?: StubAnswer };
};

export const USPS_CLIENT = { id: 'usps-client-id', secret: 'usps-client-secret' };

export async function startUspsStub(t: TestContext, opts: { expiresIn?: number } = {}): Promise<UspsStub> {
  let issued = 0;
  const valid = new Set<string>();
  const stub: UspsStub = {
    url: '',
    requests: [],
    tokenRequests: () => issued,
    revokeTokens: () => valid.clear(),
    failWith: {},
  };
  const uspsError = (status: number, message: string) => ({
    status,
    body: {
      apiVersion: '/addresses/v3',
      error: {
        code: String(status),
        message,
        errors: [{ status: String(status), code: '010005', title: message, detail: message }],
      },
    },
  });
  const started = await startStub(t, (req) => {
    if (req.method === 'POST' && req.path === '/oauth2/v3/token') {
      if (stub.failWith.token) return stub.failWith.token;
      const body = JSON.parse(req.body || '{}') as Record<string, string>;
      if (body.client_id !== USPS_CLIENT.id || body.client_secret !== USPS_CLIENT.secret) {
        return { status: 401, body: { error: 'invalid_client' } };
      }
      issued++;
      const token = `tok-${issued}`;
      valid.add(token);
      return {
        status: 200,
        body: {
          access_token: token,
          token_type: 'Bearer',
          expires_in: opts.expiresIn ?? 28_799,
          status: 'approved',
          scope: 'addresses',
        },
      };
    }
    if (req.method === 'GET' && req.path === '/addresses/v3/address') {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      if (!token || !valid.has(token)) return { status: 401, body: { error: 'invalid_token' } };
      if (stub.failWith.address) return stub.failWith.address;
      const q = req.query;
      if (!q.streetAddress || !q.state) return uspsError(400, 'streetAddress and state are required.');
      if (q.ZIPCode && !/^\d{5}$/.test(q.ZIPCode)) return uspsError(400, 'Invalid Zip Code.');
      const known = DIRECTORY[q.streetAddress.toLowerCase()];
      if (!known || known.state !== q.state) return uspsError(404, 'Address Not Found.');
      return {
        status: 200,
        body: {
          firm: '',
          address: {
            streetAddress: known.street,
            streetAddressAbbreviation: known.street,
            secondaryAddress: known.secondary ?? '',
            cityAbbreviation: known.city,
            city: known.city,
            state: known.state,
            ZIPCode: known.zip5,
            ZIPPlus4: known.plus4 || null,
            urbanization: '',
          },
          additionalInfo: {
            deliveryPoint: '00',
            carrierRoute: 'C000',
            DPVConfirmation: known.dpv ?? 'Y',
            DPVCMRA: 'N',
            business: 'Y',
            centralDeliveryPoint: 'N',
            vacant: 'N',
          },
          corrections: [{ code: '', text: '' }],
          matches: [{ code: '31', text: 'Single Response - exact match' }],
        },
      };
    }
    return { status: 404, body: { error: 'no such route' } };
  });
  stub.url = started.url;
  stub.requests = started.requests;
  return stub;
}

export type SmartyStub = {
  url: string;
  requests: StubRequest[];
  failWith: { answer?: StubAnswer };
};

export const SMARTY_AUTH = { id: 'smarty-auth-id', token: 'smarty-auth-token' };

export async function startSmartyStub(t: TestContext): Promise<SmartyStub> {
  const stub: SmartyStub = { url: '', requests: [], failWith: {} };
  const started = await startStub(t, (req) => {
    if (req.method !== 'GET' || req.path !== '/street-address') return { status: 404, body: {} };
    if (req.query['auth-id'] !== SMARTY_AUTH.id || req.query['auth-token'] !== SMARTY_AUTH.token) {
      return { status: 401, raw: 'Unauthorized' };
    }
    if (stub.failWith.answer) return stub.failWith.answer;
    const known = DIRECTORY[(req.query.street ?? '').toLowerCase()];
    if (!known || known.state !== req.query.state) return { status: 200, body: [] };
    const [primary, ...rest] = known.street.split(' ');
    return {
      status: 200,
      body: [
        {
          input_index: 0,
          candidate_index: 0,
          delivery_line_1: [known.street, known.secondary].filter(Boolean).join(' '),
          last_line: `${known.city} ${known.state} ${known.zip5}-${known.plus4}`,
          delivery_point_barcode: `${known.zip5}${known.plus4}00`,
          components: {
            primary_number: primary,
            street_name: rest.join(' '),
            city_name: known.city,
            default_city_name: known.city,
            state_abbreviation: known.state,
            zipcode: known.zip5,
            plus4_code: known.plus4 || undefined,
          },
          metadata: { record_type: 'S', zip_type: 'Standard', county_fips: '11001', precision: 'Zip9' },
          analysis: {
            dpv_match_code: known.dpv ?? 'Y',
            dpv_footnotes: 'AABB',
            dpv_cmra: 'N',
            dpv_vacant: 'N',
            active: 'Y',
          },
        },
      ],
    };
  });
  stub.url = started.url;
  stub.requests = started.requests;
  return stub;
}
