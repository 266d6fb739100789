import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { beforeAll, expect, test } from 'vitest';
import { formatOpenApiDocument, generateOpenApiDocument, OPENAPI_FILE } from '../../src/openapi/document.js';

let generated: Record<string, unknown>;
beforeAll(async () => {
  generated = await generateOpenApiDocument();
});

test('the checked-in openapi/openapi.json is what the code produces (run `npm run openapi`)', async () => {
  const checkedIn = await readFile(OPENAPI_FILE, 'utf8');
  expect(checkedIn).toBe(formatOpenApiDocument(generated));
});

test('the document is valid OpenAPI 3.1', async () => {
  const validator = new Validator();
  const result = await validator.validate(structuredClone(generated));
  expect(result.errors ?? []).toEqual([]);
  expect(result.valid).toBe(true);
  expect(validator.version).toBe('3.1');
});

test('both hosts are servers, version 1.0.0, and every operation declares its errors', () => {
  expect(generated.openapi).toBe('3.1.0');
  expect((generated.info as { version: string }).version).toBe('1.0.0');
  expect((generated.servers as unknown[]).length).toBe(2);
  const paths = generated.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
  for (const [p, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const codes = Object.keys(op.responses);
      expect(
        codes.some((c) => c.startsWith('2') || c.startsWith('3')),
        `${method} ${p} success`,
      ).toBe(true);
      expect(
        codes.some((c) => c.startsWith('4') || c.startsWith('5')),
        `${method} ${p} errors`,
      ).toBe(true);
    }
  }
});

test('every operation that may carry a body (POST, PUT, PATCH, DELETE) declares 413 and 415', () => {
  // Fastify parses a body on these methods before the handler runs, so a wrong content type
  // or an oversized body is answered on every one of them; the fuzzer finds an undeclared one
  // only when its draw happens to hit it.
  const paths = generated.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>;
  const missing: string[] = [];
  for (const [p, ops] of Object.entries(paths)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!['post', 'put', 'patch', 'delete'].includes(method)) continue;
      for (const code of ['413', '415']) if (!(code in op.responses)) missing.push(`${method} ${p} ${code}`);
    }
  }
  expect(missing).toEqual([]);
});
