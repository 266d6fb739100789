/**
 * Headers every response carries (docs/contract.md, "Hardening"), as name/value pairs:
 *
 * - `X-Content-Type-Options: nosniff`, so that no browser takes a JSON answer or an error
 *   text for a script or a page;
 * - when the public address is https, `Strict-Transport-Security`, so that a browser that
 *   has been here once never again asks over plain http, where an admin token or a
 *   customer's address could be read on the convention's Wi-Fi. Not over http: a browser
 *   would then refuse that host's plain http for a year. No `includeSubDomains`: the
 *   operator's other hosts are not ours to decide.
 *
 * Three places answer requests and each sends them: Fastify (plugins/http-conventions.ts,
 * onSend), the gallery pages' fast path (routes/gallery/fast-path.ts) and the answers to
 * requests Node's HTTP parser refuses (errors/handler.ts).
 */
import type { Config } from '../config/env.js';

/** One year, the max-age browsers' preload lists ask for. */
const HSTS_MAX_AGE_S = 31_536_000;

export function securityHeaders(config: Pick<Config, 'publicBaseUrl'>): [name: string, value: string][] {
  const headers: [string, string][] = [['x-content-type-options', 'nosniff']];
  if (config.publicBaseUrl.startsWith('https:')) {
    headers.push(['strict-transport-security', `max-age=${HSTS_MAX_AGE_S}`]);
  }
  return headers;
}
