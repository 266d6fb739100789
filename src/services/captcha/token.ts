/**
 * Where a submission carries its CAPTCHA token (docs/contract.md, "Orders"): the `captchaToken` body field,
 * else the `X-Captcha-Token` header.
 */
import type { FastifyRequest } from 'fastify';

export function captchaTokenOf(request: FastifyRequest): string | undefined {
  const body = request.body as { captchaToken?: unknown } | null | undefined;
  if (body && typeof body === 'object' && typeof body.captchaToken === 'string' && body.captchaToken !== '') {
    return body.captchaToken;
  }
  const header = request.headers['x-captcha-token'];
  return typeof header === 'string' && header !== '' ? header : undefined;
}
