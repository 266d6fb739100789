/**
 * Headers every response carries (docs/contract.md, "Hardening"): `nosniff`, so no browser
 * takes a JSON answer or an error for a script; over https, `Strict-Transport-Security`, so an
 * admin token or an address is never again asked for over the convention's Wi-Fi in plain http
 * (not over http: browsers would refuse that host's http for a year; no `includeSubDomains`:
 * the operator's other hosts are not ours). Sent by Fastify (plugins/http-conventions.ts), the
 * gallery fast path and the answers to requests Node's parser refuses (errors/handler.ts).
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
