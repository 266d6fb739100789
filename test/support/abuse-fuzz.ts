/**
 * One fuzzed request per arbitrary draw, for any operation of the OpenAPI document, and
 * the checks every answer must pass whatever was sent: no 5xx; errors in the error shape (docs/contract.md, "Hosts and formats")
 * (exactly `error`, `code`, `details`, all strings; a code of the catalogue with its status)
 * unless the operation documents another type for that status (the HTML confirmation page);
 * CORS on everything; `WWW-Authenticate` on 401 and `Retry-After` on 429; the status and the
 * JSON body as the document declares; never a stack trace or a file path.
 */

import fc from 'fast-check';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { errorCatalogue } from '../../src/errors/catalogue.js';
import { ADMIN_TOKEN } from '../helpers/build.js';
import { expectMatchesOpenApi, templateFor } from '../helpers/openapi-response.js';
import {
  conformingArb,
  deepJson,
  type JsonSchema,
  loadDocument,
  mutatedArb,
  NASTY_NUMBERS,
  NASTY_STRINGS,
  type Operation,
  type Parameter,
  TRAVERSAL_SEGMENTS,
  wrongTypeArb,
} from './abuse-openapi.js';

export type Auth = 'admin' | 'none' | 'wrong' | 'malformed';

type FuzzBody =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; payload: string | Buffer; contentType?: string };

export type FuzzRequest = {
  auth: Auth;
  /** Path parameter → the segment as it goes on the wire (already URL-encoded, or not). */
  path: Record<string, string>;
  query: [string, string][];
  headers: Record<string, string>;
  body: FuzzBody;
  remoteAddress: string;
};

/** Real values of the fixture app, so that a share of requests reaches real records. */
export type KnownValues = {
  event: string;
  day: string;
  session: string;
  photos: string[];
  orders: string[];
};

/** Which known values fit a parameter, by its name. */
function knownFor(name: string, known: KnownValues): string[] {
  const n = name.toLowerCase();
  if (n === 'eventcode' || n === 'event' || n === 'eventslug') return [known.event];
  if (n === 'day') return [known.day];
  if (n === 'session') return [known.session];
  if (n === 'photo') return known.photos;
  if (n === 'id' || n === 'orderid' || n === 'ordernumber') return known.orders;
  return [];
}

/** encodeURIComponent that takes lone surrogates too (as U+FFFD, like a browser). */
export function enc(s: string): string {
  return [...Buffer.from(s, 'utf8')]
    .map((b) =>
      /[A-Za-z0-9\-_.!~*'()]/.test(String.fromCharCode(b))
        ? String.fromCharCode(b)
        : `%${b.toString(16).toUpperCase().padStart(2, '0')}`,
    )
    .join('');
}

const headerSafe = (s: string) => /^[\t\x20-\x7e\x80-\xff]*$/.test(s);

function asText(v: unknown): string {
  return typeof v === 'string' ? v : (JSON.stringify(v) ?? '');
}

function pathParamArb(doc: ReturnType<typeof loadDocument>, p: Parameter, known: KnownValues): fc.Arbitrary<string> {
  const real = knownFor(p.name, known);
  return fc.oneof(
    { weight: 3, arbitrary: real.length ? fc.constantFrom(...real).map(encodeURIComponent) : fc.constant('x') },
    { weight: 2, arbitrary: conformingArb(doc, p.schema).map((v) => enc(asText(v)) || 'x') },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS).map((s) => enc(s) || '%20') },
    { weight: 3, arbitrary: fc.constantFrom(...TRAVERSAL_SEGMENTS) },
  );
}

function queryValueArb(doc: ReturnType<typeof loadDocument>, p: Parameter, known: KnownValues): fc.Arbitrary<string[]> {
  const real = knownFor(p.name, known);
  const one = fc.oneof(
    { weight: 3, arbitrary: real.length ? fc.constantFrom(...real) : conformingArb(doc, p.schema).map(asText) },
    { weight: 3, arbitrary: conformingArb(doc, p.schema).map(asText) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
    { weight: 2, arbitrary: fc.constantFrom(...NASTY_NUMBERS).map(String) },
  );
  // A repeated key arrives as an array: a classic for validators that expect a string.
  return fc.oneof(
    { weight: 5, arbitrary: one.map((v) => [v]) },
    { weight: 1, arbitrary: fc.array(one, { minLength: 2, maxLength: 3 }) },
  );
}

function headerValueArb(doc: ReturnType<typeof loadDocument>, p: Parameter): fc.Arbitrary<string> {
  const referer =
    p.name.toLowerCase() === 'referer'
      ? [
          fc.constantFrom(
            'https://gallery.example/event/Anime%20Expo/Day%201/Cosplay',
            'https://gallery.example/event/..%2f..%2fetc/passwd',
            'https://gallery.example/event/%E0%A4%A',
            'javascript:alert(1)',
            'not a url',
            'https://gallery.example/event/',
          ),
        ]
      : [];
  return fc
    .oneof(
      conformingArb(doc, p.schema).map(asText),
      fc.constantFrom(...NASTY_STRINGS),
      fc.string({ maxLength: 300 }),
      fc.constant('x'.repeat(20_000)),
      ...referer,
    )
    .map((v) => (headerSafe(v) ? v : enc(v)));
}

const RAW_BODIES: readonly { payload: string | Buffer; contentType?: string }[] = [
  { payload: '', contentType: 'application/json' },
  { payload: '{', contentType: 'application/json' },
  { payload: '{"a":', contentType: 'application/json' },
  { payload: 'null', contentType: 'application/json' },
  { payload: '"just a string"', contentType: 'application/json' },
  { payload: '[]', contentType: 'application/json' },
  { payload: '1e999999', contentType: 'application/json' },
  { payload: '{"__proto__":{"polluted":true}}', contentType: 'application/json' },
  { payload: '{"constructor":{"prototype":{"polluted":true}}}', contentType: 'application/json' },
  { payload: `${'['.repeat(30_000)}${']'.repeat(30_000)}`, contentType: 'application/json' },
  { payload: deepJson(5000), contentType: 'application/json' },
  { payload: deepJson(10_000, 'object'), contentType: 'application/json' },
  { payload: JSON.stringify({ pad: 'x'.repeat(70 * 1024) }), contentType: 'application/json' },
  { payload: Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x3a, 0x31, 0x7d]), contentType: 'application/json' },
  { payload: '\uFEFF{}', contentType: 'application/json' },
  { payload: '{}', contentType: 'application/json; charset=utf-16' },
  { payload: '{}', contentType: 'application/JSON' },
  { payload: '{}', contentType: 'application/json;;;' },
  { payload: '{}', contentType: 'text/plain' },
  { payload: 'a=1&b=2', contentType: 'application/x-www-form-urlencoded' },
  {
    payload: '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
    contentType: 'multipart/form-data; boundary=x',
  },
  {
    payload: '<?xml version="1.0"?><!DOCTYPE a [<!ENTITY e SYSTEM "file:///etc/passwd">]><a>&e;</a>',
    contentType: 'application/xml',
  },
  { payload: '{}', contentType: '' },
  { payload: '{}' },
  { payload: '{}', contentType: '*/*' },
  { payload: '{}', contentType: 'application/json\r\nX-Injected: 1'.replace(/\r\n/g, ' ') },
];

function bodyArb(
  doc: ReturnType<typeof loadDocument>,
  schema: JsonSchema | undefined,
  examples: readonly unknown[],
): fc.Arbitrary<FuzzBody> {
  const raw = fc.constantFrom(...RAW_BODIES).map((r): FuzzBody => ({ kind: 'raw', ...r }));
  if (!schema) {
    return fc.oneof({ weight: 6, arbitrary: fc.constant<FuzzBody>({ kind: 'none' }) }, { weight: 1, arbitrary: raw });
  }
  const json = (value: unknown): FuzzBody => ({ kind: 'json', value });
  // Valid bodies, and valid bodies with one thing changed, get past validation into the handler.
  const fromExamples = examples.length
    ? [
        { weight: 2, arbitrary: fc.constantFrom(...examples).map(json) },
        { weight: 5, arbitrary: mutatedArb(doc, schema, fc.constantFrom(...examples)).map(json) },
      ]
    : [];
  return fc.oneof(
    ...fromExamples,
    { weight: 2, arbitrary: conformingArb(doc, schema).map(json) },
    { weight: 3, arbitrary: mutatedArb(doc, schema).map(json) },
    { weight: 1, arbitrary: wrongTypeArb().map((value): FuzzBody => ({ kind: 'json', value })) },
    { weight: 2, arbitrary: raw },
    { weight: 1, arbitrary: fc.constant<FuzzBody>({ kind: 'none' }) },
  );
}

export function requestArb(
  op: Operation,
  known: KnownValues,
  auths: readonly Auth[],
  examples: readonly unknown[] = [],
): fc.Arbitrary<FuzzRequest> {
  const doc = loadDocument();
  const pathParams: Record<string, fc.Arbitrary<string>> = {};
  const query: fc.Arbitrary<[string, string][]>[] = [];
  const headers: Record<string, fc.Arbitrary<string>> = {};
  for (const p of op.params) {
    if (p.in === 'path') pathParams[p.name] = pathParamArb(doc, p, known);
    else if (p.in === 'query')
      query.push(
        fc
          .option(queryValueArb(doc, p, known), { freq: 4, nil: undefined })
          .map((vs) => (vs ?? []).map((v) => [p.name, v] as [string, string])),
      );
    else if (p.in === 'header') headers[p.name] = headerValueArb(doc, p);
  }
  // Sometimes a parameter nobody declared.
  query.push(
    fc
      .option(fc.tuple(fc.constantFrom('debug', '__proto__', 'page[]', ''), fc.constantFrom(...NASTY_STRINGS)), {
        freq: 5,
        nil: undefined,
      })
      .map((v) => (v ? [v] : [])),
  );
  return fc.record({
    auth: fc.constantFrom(...auths),
    path: fc.record(pathParams),
    query: fc.tuple(...query).map((parts) => parts.flat()),
    // Each declared header in about one request in four.
    headers: fc
      .tuple(
        ...Object.entries(headers).map(([k, v]) =>
          fc.option(
            v.map((x) => [k, x] as const),
            { freq: 3, nil: undefined },
          ),
        ),
      )
      .map((pairs) => Object.fromEntries(pairs.filter((p) => p !== undefined))),
    body: bodyArb(doc, op.body, examples),
    remoteAddress: fc
      .tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 }))
      .map((p) => p.join('.')),
  });
}

/** The URL of `op` with the request's parameters (path segments are put in as they are). */
export function urlOf(op: Operation, req: FuzzRequest): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => req.path[name] ?? 'x');
  const qs = req.query.map(([k, v]) => `${enc(k)}=${enc(v)}`).join('&');
  return qs ? `${path}?${qs}` : path;
}

const AUTH_HEADERS: Record<Auth, Record<string, string>> = {
  admin: { authorization: `Bearer ${ADMIN_TOKEN}` },
  none: {},
  wrong: { authorization: `Bearer ${'w'.repeat(ADMIN_TOKEN.length)}` },
  malformed: { authorization: 'Basic YWRtaW46YWRtaW4=' },
};

export async function send(app: FastifyInstance, op: Operation, req: FuzzRequest): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = { ...req.headers, ...AUTH_HEADERS[req.auth] };
  let payload: string | Buffer | undefined;
  if (req.body.kind === 'json') {
    payload = JSON.stringify(req.body.value) ?? 'null';
    headers['content-type'] = 'application/json';
  } else if (req.body.kind === 'raw') {
    payload = req.body.payload;
    if (req.body.contentType !== undefined) headers['content-type'] = req.body.contentType;
  }
  return app.inject({
    method: op.method as 'GET',
    url: urlOf(op, req),
    headers,
    payload,
    remoteAddress: req.remoteAddress,
  });
}

const STACK_TRACE = /\n\s+at .+:\d+:\d+|node_modules|file:\/\/|(?:Type|Reference|Syntax|Range)Error:/;

/** What a response is judged on: the light-my-request response, or the same fields from a real socket. */
export type Answer = Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body'> & {
  /** What was asked, for the OpenAPI check. */
  method: string;
  url: string;
};

function answerOf(res: LightMyRequestResponse): Answer {
  return {
    statusCode: res.statusCode,
    headers: res.headers,
    body: res.body,
    method: res.raw.req.method ?? 'GET',
    url: res.raw.req.url ?? '',
  };
}

/**
 * Everything wrong with `res` as an answer to `op`; empty when it is fine. `secrets` are
 * strings no answer may contain (the server's folders, say) unless the request itself
 * carried them (an error may echo what it was sent).
 */
export function problemsWith(
  op: Operation,
  response: LightMyRequestResponse | Answer,
  opts: { secrets?: string[]; sent?: string; auth?: Auth } = {},
): string[] {
  const res = 'raw' in response ? answerOf(response) : response;
  const problems: string[] = [];
  const status = res.statusCode;
  const type =
    String(res.headers['content-type'] ?? '')
      .split(';')[0]
      ?.trim() ?? '';
  const text = res.body;
  if (status >= 500) problems.push(`status ${status}: ${text.slice(0, 300)}`);
  // Function-level authorisation: an admin operation never succeeds without the token.
  if (op.adminOnly && opts.auth && opts.auth !== 'admin' && status < 400) {
    problems.push(`admin operation answered ${status} to a request with ${opts.auth} credentials`);
  }
  if (res.headers['access-control-allow-origin'] !== '*') problems.push('no Access-Control-Allow-Origin: *');
  if (STACK_TRACE.test(text)) problems.push(`a stack trace in the body: ${text.slice(0, 300)}`);
  const sent = opts.sent ?? safeDecode(res.url);
  for (const secret of opts.secrets ?? []) {
    if (text.includes(secret) && !sent.includes(secret))
      problems.push(`"${secret}" in the body: ${text.slice(0, 300)}`);
  }
  if (status >= 400) {
    const documentedOther = (op.responses[String(status)] ?? []).some((t) => t !== 'application/json');
    if (type === 'application/json') {
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        problems.push(`error body is not JSON: ${text.slice(0, 200)}`);
      }
      const keys = body && typeof body === 'object' ? Object.keys(body).sort().join(',') : '';
      const b = body as Record<string, unknown>;
      if (
        keys !== 'code,details,error' ||
        typeof b.error !== 'string' ||
        typeof b.code !== 'string' ||
        typeof b.details !== 'string'
      ) {
        problems.push(`error body is not exactly { error, code, details } strings: ${text.slice(0, 200)}`);
      } else {
        const entry = (errorCatalogue as Record<string, { status: number }>)[b.code as string];
        if (!entry) problems.push(`code ${b.code} is not in the catalogue`);
        else if (entry.status !== status)
          problems.push(`code ${b.code} is ${entry.status} in the catalogue, sent ${status}`);
      }
    } else if (!documentedOther || res.statusCode === 500) {
      problems.push(`error with content type "${type}": ${text.slice(0, 200)}`);
    }
    if (status === 401 && !/^Bearer realm="admin"/.test(String(res.headers['www-authenticate'] ?? ''))) {
      problems.push('401 without WWW-Authenticate: Bearer realm="admin"');
    }
    if (status === 429 && !/^\d+$/.test(String(res.headers['retry-after'] ?? '')))
      problems.push('429 without Retry-After');
  }
  // The status (and a JSON body) as the document declares, for the operation that answered.
  if (templateFor(res.method, res.url)) {
    try {
      expectMatchesOpenApi(res.method, res.url, {
        statusCode: res.statusCode,
        headers: res.headers,
        json: () => JSON.parse(res.body),
      } as unknown as LightMyRequestResponse);
    } catch (err) {
      problems.push(`not as documented: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  return problems;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
