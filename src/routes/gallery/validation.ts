/**
 * Performance machinery for `npm run bench -- gallery` (cached gallery pages ≥ 0.7× a bare
 * server sending the same bytes).
 *
 * The gallery routes' validator compiler: recognises the common valid request
 * (`?page=3&limit=50`, plain path names) without running zod. Anything else goes through
 * zod (schemas.ts, the single source of truth), so every error is exactly zod's.
 */
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { DEFAULT_LIMIT, MAX_LIMIT } from './schemas.js';

/** 1 to 15 digits without a leading zero: always a safe integer ≥ 1. */
const PLAIN_POSITIVE = /^[1-9][0-9]{0,14}$/;
const MAX_NAME = 500;

/**
 * What PageQuery gives for a plainly valid `?page=&limit=` (every other key left to zod),
 * defaults included (`featured: false`), else undefined (let zod decide).
 */
function plainPageQuery(data: unknown): { page: number; limit: number; featured: false } | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  let page = 1;
  let limit = DEFAULT_LIMIT;
  for (const key in data) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value !== 'string' || !PLAIN_POSITIVE.test(value)) return undefined;
    if (key === 'page') page = Number(value);
    else if (key === 'limit') limit = Math.min(Number(value), MAX_LIMIT);
    else return undefined;
  }
  return { page, limit, featured: false };
}

/** The params object itself when every value is a non-empty string within the length limit. */
function plainParams(data: unknown): Record<string, string> | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  for (const key in data) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_NAME) return undefined;
  }
  return data as Record<string, string>;
}

export const galleryValidatorCompiler: FastifySchemaCompiler<z.ZodType> = (route) => {
  const viaZod = validatorCompiler(route);
  if (route.httpPart === 'querystring') {
    return (data: unknown) => {
      const value = plainPageQuery(data);
      return value ? { value } : viaZod(data);
    };
  }
  if (route.httpPart === 'params') {
    return (data: unknown) => {
      const value = plainParams(data);
      return value ? { value } : viaZod(data);
    };
  }
  return viaZod;
};
