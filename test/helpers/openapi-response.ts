/**
 * Validates a real response against the checked-in OpenAPI document (which a test keeps
 * equal to what the code produces): the status must be declared for the operation, and a
 * JSON body must match its schema.
 *
 *   expectMatchesOpenApi('POST', '/api/orders', res);
 */
import { readFileSync } from 'node:fs';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { OPENAPI_FILE } from '../../src/openapi/document.js';

type Operation = { responses: Record<string, { content?: Record<string, { schema?: unknown }> }> };
type Doc = { paths: Record<string, Record<string, Operation>> };

const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

let cached: { doc: Doc; ajv: Ajv2020; validators: Map<string, ValidateFunction> } | undefined;

function load() {
  if (!cached) {
    const doc = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Doc;
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(doc as object, 'openapi.json');
    cached = { doc, ajv, validators: new Map() };
  }
  return cached;
}

const escapePointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

/** The document's path template matching a concrete URL path (`/api/orders/AX-1` → `/api/orders/{id}`). */
export function templateFor(method: string, urlPath: string): string | undefined {
  const { doc } = load();
  const path = urlPath.split('?')[0] as string;
  const candidates = Object.keys(doc.paths).filter((t) => doc.paths[t]?.[method.toLowerCase()]);
  // Static segments win over parameters, as in the router.
  const score = (t: string) => t.split('/').filter((s) => !s.startsWith('{')).length;
  for (const t of candidates.sort((a, b) => score(b) - score(a))) {
    const re = new RegExp(`^${t.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`);
    if (re.test(path)) return t;
  }
  return undefined;
}

export function expectMatchesOpenApi(method: string, urlPath: string, res: LightMyRequestResponse): void {
  const { doc, ajv, validators } = load();
  const template = templateFor(method, urlPath);
  expect(template, `${method} ${urlPath} is in the OpenAPI document`).toBeDefined();
  const op = doc.paths[template as string]?.[method.toLowerCase()] as Operation;
  const status = String(res.statusCode);
  const declared = op.responses[status] ?? op.responses[`${status[0]}XX`] ?? op.responses.default;
  expect(declared, `${method} ${template} declares status ${status}`).toBeDefined();
  const type = String(res.headers['content-type'] ?? '').split(';')[0] as string;
  if (!type.endsWith('json') || res.statusCode === 304) return;
  const key = `${method} ${template} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    const code = op.responses[status] ? status : op.responses[`${status[0]}XX`] ? `${status[0]}XX` : 'default';
    const pointer = `openapi.json#/paths/${escapePointer(template as string)}/${method.toLowerCase()}/responses/${code}/content/${escapePointer('application/json')}/schema`;
    validate = ajv.compile({ $ref: pointer });
    validators.set(key, validate);
  }
  const ok = validate(res.json());
  expect(ok ? [] : validate.errors, `${key} body matches its schema`).toEqual([]);
}
