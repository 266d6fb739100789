/**
 * The "client address" that rate limits and admin lockouts count against: the request's
 * IP (after `TRUST_PROXY`), with IPv6 addresses grouped by their /64 prefix, because one
 * household or phone gets a whole /64 and could otherwise rotate through it to dodge the
 * counters. IPv4-mapped IPv6 addresses count as the IPv4 address.
 */
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';

const IPV6_PREFIX_BITS = 64;

export function clientKey(ip: string | undefined): string {
  if (!ip) return 'unknown';
  return rateLimit.normalizeIP(ip, IPV6_PREFIX_BITS);
}

/**
 * The client address as a record may keep it: a digest of `clientKey`, so a table that counts
 * what one address did (takedown requests) holds no address.
 */
export function clientDigest(ip: string | undefined): string {
  return createHash('sha256')
    .update(`client:${clientKey(ip)}`)
    .digest('base64url')
    .slice(0, 22);
}
