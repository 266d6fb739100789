/**
 * Where phones on the booth's Wi-Fi reach this server: the machine's private IPv4 addresses
 * (RFC 1918: 10/8, 172.16/12, 192.168/16), as printed at start-up beside the local address.
 * Loopback, link-local and other interfaces' addresses are left out; a machine on several
 * networks lists each.
 */
import type { NetworkInterfaceInfo } from 'node:os';

function isPrivateV4(address: string): boolean {
  const [a = -1, b = -1] = address.split('.').map(Number);
  return a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
}

/** `http://<address>:<port>/` for every private IPv4 address of the machine. */
export function lanUrls(interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>, port: number): string[] {
  const out = new Set<string>();
  for (const list of Object.values(interfaces)) {
    for (const i of list ?? []) {
      if (i.family === 'IPv4' && !i.internal && isPrivateV4(i.address)) out.add(`http://${i.address}:${port}/`);
    }
  }
  return [...out];
}

/** Whether a server listening on `host` is reachable from other machines (all interfaces). */
export function listensOnAll(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}
