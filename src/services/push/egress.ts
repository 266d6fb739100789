/**
 * Where pushes may go (docs/contract.md, "Hardening"). A push endpoint is the one URL a
 * request can make this server call, so it is where an attacker would aim at the inside of
 * the network. Two checks:
 * - at subscribe time, on the name (`endpointRefusal`): https on 443 (another port aims at
 *   another service of a public host, "Hardening, round 2"), no IP literal or local name.
 * - at send time (`createPushAgent`): the agent resolves the name, refuses unless every
 *   address is public, and connects to the address it checked (TLS still verifies the name),
 *   so DNS rebinding has no gap between check and connection.
 * Public: globally routable unicast; IPv4-mapped and NAT64 addresses are judged by the IPv4
 * they carry. `PUSH_ALLOW_HOSTS` exempts named hosts from both (tests, on-premises relays).
 */
import dns, { type LookupAddress, type LookupAllOptions } from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import type { Duplex } from 'node:stream';
import ipaddr from 'ipaddr.js';

/** The error a refused connection fails with; the notifier gives up on it at once. */
export const ENDPOINT_NOT_PUBLIC = 'ERR_PUSH_ENDPOINT_NOT_PUBLIC';

class EndpointNotPublicError extends Error {
  readonly code = ENDPOINT_NOT_PUBLIC;
  constructor(
    readonly host: string,
    readonly address: string | undefined,
    readonly port?: number,
  ) {
    super(
      port !== undefined
        ? `push endpoint host ${host} is on port ${port}, not 443`
        : address === undefined
          ? `push endpoint host ${host} has no address`
          : `push endpoint host ${host} is at ${address}, not a public address`,
    );
    this.name = 'EndpointNotPublicError';
  }
}

/** Lower case, no IPv6 brackets, no trailing dots: `LocalHost.` and `localhost` are one host. */
export function normaliseHost(host: string): string {
  return host
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.+$/, '');
}

/** `PUSH_ALLOW_HOSTS` as a set of normalised hosts. */
export function allowedHosts(list: string | undefined): ReadonlySet<string> {
  return new Set(
    (list ?? '')
      .split(',')
      .map((h) => normaliseHost(h.trim()))
      .filter(Boolean),
  );
}

const LOCAL_SUFFIXES = ['.localhost', '.local', '.internal', '.home.arpa', '.localdomain'];

/** Names that only mean something inside a network (RFC 6761, 6762, 8375) or a single label. */
function isLocalName(host: string): boolean {
  return host === 'localhost' || !host.includes('.') || LOCAL_SUFFIXES.some((s) => host.endsWith(s));
}

/** Whether `address` (an IP literal) is a public, globally routable unicast address. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let addr = ipaddr.parse(address);
  if (addr.kind() === 'ipv6') {
    const v6 = addr as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) {
      addr = v6.toIPv4Address();
    } else if (v6.range() === 'rfc6052') {
      addr = new ipaddr.IPv4(v6.toByteArray().slice(12)); // NAT64: the IPv4 address it reaches
    } else {
      // 2000::/3 is all the global unicast space allocated; the rest is special or unused.
      return v6.range() === 'unicast' && ((v6.parts[0] ?? 0) & 0xe000) === 0x2000;
    }
  }
  return addr.range() === 'unicast';
}

/**
 * Why a subscription endpoint is refused, or undefined when it is acceptable (the send-time
 * check still applies).
 */
export function endpointRefusal(endpoint: string, allow: ReadonlySet<string>): string | undefined {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint must be an https URL';
  }
  if (url.protocol !== 'https:') return 'endpoint must be an https URL';
  const host = normaliseHost(url.hostname);
  if (allow.has(host)) return undefined;
  if (net.isIP(host) !== 0 || isLocalName(host)) {
    return 'endpoint must name a push service host, not an address or a local name';
  }
  // URL drops the scheme's default port: '' is 443.
  if (url.port !== '') return 'endpoint must be on the https port (443)';
  return undefined;
}

type Lookup = (
  hostname: string,
  options: LookupAllOptions,
  callback: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

export type PushAgentOptions = {
  /** Hosts exempt from the check (`PUSH_ALLOW_HOSTS`). */
  allow?: ReadonlySet<string>;
  /** Extra trusted certificates (tests: the local push service's). */
  ca?: string | Buffer;
  /** The resolver (tests: one that answers what a hostile DNS server would). */
  lookup?: Lookup;
};

/** An https.Agent for web-push that connects only to public addresses (see above). */
export function createPushAgent(opts: PushAgentOptions = {}): https.Agent {
  const allow = opts.allow ?? new Set<string>();
  const lookup: Lookup = opts.lookup ?? ((host, options, callback) => dns.lookup(host, options, callback));

  class PublicOnlyAgent extends https.Agent {
    override createConnection(
      options: https.RequestOptions,
      callback?: (err: Error | null, stream: Duplex) => void,
    ): Duplex | null | undefined {
      const host = normaliseHost(String(options.host ?? options.hostname ?? ''));
      const fail = (err: Error) => process.nextTick(() => callback?.(err, undefined as unknown as Duplex));
      if (allow.has(host)) return super.createConnection(options, callback);
      // Checked last, once the address is known to be public: the refusal names what is wrong first.
      const port = Number(options.port ?? 443);
      const portRefused = port !== 443 ? new EndpointNotPublicError(host, undefined, port) : undefined;
      if (net.isIP(host) !== 0) {
        if (!isPublicAddress(host)) fail(new EndpointNotPublicError(host, host));
        else if (portRefused) fail(portRefused);
        else return super.createConnection(options, callback);
        return undefined;
      }
      lookup(host, { all: true, verbatim: true }, (err, addresses) => {
        if (err) return fail(err);
        const refused = addresses.find((a) => !isPublicAddress(a.address));
        const first = addresses[0];
        if (refused || !first) return fail(new EndpointNotPublicError(host, refused?.address));
        if (portRefused) return fail(portRefused);
        let socket: Duplex | null | undefined;
        try {
          // The address just checked, and the name for TLS (SNI and the certificate check).
          socket = super.createConnection({ ...options, host: first.address, servername: options.servername || host });
        } catch (connectErr) {
          return fail(connectErr as Error);
        }
        if (socket) callback?.(null, socket);
      });
      return undefined;
    }
  }

  return new PublicOnlyAgent({ keepAlive: true, ...(opts.ca ? { ca: opts.ca } : {}) });
}
