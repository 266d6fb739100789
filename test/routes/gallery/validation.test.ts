import fc from 'fast-check';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema.js';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { expect, test } from 'vitest';
import type { z } from 'zod';
import { EventParams, PageQuery, SessionParams } from '../../../src/routes/gallery/schemas.js';
import { galleryValidatorCompiler } from '../../../src/routes/gallery/validation.js';

type Validate = (data: unknown) => { value?: unknown; error?: unknown };
const compile = (compiler: typeof galleryValidatorCompiler, schema: z.ZodType, httpPart: string) =>
  compiler({
    schema,
    httpPart,
    method: 'GET',
    url: '/event/:eventCode',
  } as FastifyRouteSchemaDef<z.ZodType>) as Validate;

/** Whatever the input, the fast path answers exactly what zod answers. */
function sameAsZod(schema: z.ZodType, httpPart: string, input: unknown): void {
  const fast = compile(galleryValidatorCompiler, schema, httpPart)(input);
  const zod = compile(validatorCompiler, schema, httpPart)(input);
  expect(Boolean(fast.error), JSON.stringify(input)).toBe(Boolean(zod.error));
  if (!zod.error) expect(fast.value, JSON.stringify(input)).toEqual(zod.value);
}

const queryValue = fc.oneof(
  fc.integer({ min: -5, max: 300 }).map(String),
  fc.constantFrom('', '0', '01', '1.5', 'abc', '1e2', ' 7', '9007199254740993', '999999999999999', '100', '101'),
  fc.string({ maxLength: 4 }),
  fc.array(fc.constantFrom('1', '2'), { minLength: 2, maxLength: 2 }),
);

test('page queries: the fast path agrees with zod on every input', () => {
  fc.assert(
    fc.property(
      fc.record({ page: queryValue, limit: queryValue, other: fc.constantFrom('x', '1') }, { requiredKeys: [] }),
      (query) => sameAsZod(PageQuery, 'querystring', query),
    ),
    { numRuns: 1500 },
  );
  // The cases the gallery sees most, explicitly.
  for (const q of [{}, { page: '3' }, { limit: '50' }, { page: '2', limit: '101' }, { limit: '100' }]) {
    sameAsZod(PageQuery, 'querystring', q);
  }
});

test('path parameters: the fast path agrees with zod on every input', () => {
  const name = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('', 'x'.repeat(500), 'x'.repeat(501), '..', '\u0000'),
  );
  fc.assert(
    fc.property(fc.record({ eventCode: name }), (params) => sameAsZod(EventParams, 'params', params)),
    { numRuns: 500 },
  );
  fc.assert(
    fc.property(fc.record({ eventCode: name, day: name, session: name }), (params) =>
      sameAsZod(SessionParams, 'params', params),
    ),
    { numRuns: 500 },
  );
});
