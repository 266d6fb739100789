/**
 * services/push/egress.ts: which addresses are public, which endpoints a subscription may
 * name, and the agent that connects only to the public address it has just checked.
 *
 * A hostile DNS server is played by the agent's resolver (`lookup`): no real name resolves
 * to what an attacker would choose here. Loopback listeners count the connections they are
 * offered; this process can't reach the internet (test/setup/no-internet.ts), so a connection
 * to a public address fails with ENETUNREACH naming the address it was sent to.
 */
import type { LookupAddress } from 'node:dns';
import https from 'node:https';
import net from 'node:net';
import { describe, expect, test } from 'vitest';
import {
  allowedHosts,
  createPushAgent,
  ENDPOINT_NOT_PUBLIC,
  endpointRefusal,
  isPublicAddress,
  normaliseHost,
} from '../../../src/services/push/egress.js';
import { countingListener } from '../../support/counting-listener.js';

describe('isPublicAddress', () => {
  test.each([
    '8.8.8.8',
    '1.1.1.1',
    '142.250.74.10',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200a',
    '::ffff:8.8.8.8', // IPv4-mapped: judged by the IPv4 address
    '64:ff9b::808:808', // NAT64 of 8.8.8.8
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  test.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['0.0.0.0', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['192.0.2.1', 'documentation'],
    ['240.0.0.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fd12:3456::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['::7f00:1', 'IPv4-compatible (deprecated)'],
    ['2001:db8::1', 'documentation'],
    ['2002:7f00:1::', '6to4'],
    ['not an address', 'not an address'],
  ])('%s is not public (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('endpointRefusal', () => {
  const none = allowedHosts(undefined);

  test.each([
    'https://fcm.googleapis.com/fcm/send/abc',
    'https://updates.push.services.mozilla.com/wpush/v2/x',
    'https://web.push.apple.com/QG',
    'https://fcm.googleapis.com./fcm/send/abc', // a trailing dot is the same name
    'https://fcm.googleapis.com:443/fcm/send/abc', // the https port, written out
  ])('%s is accepted', (endpoint) => {
    expect(endpointRefusal(endpoint, none)).toBeUndefined();
  });

  test.each([
    'http://fcm.googleapis.com/x',
    'not a url',
    'https://127.0.0.1/x',
    'https://0x7f.1/x', // parsed as 127.0.0.1
    'https://2130706433/x',
    'https://[::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://localhost/x',
    'https://localhost./x',
    'https://LOCALHOST../x',
    'https://foo.localhost./x',
    'https://printer.local/x',
    'https://metadata.google.internal/x',
    'https://nas.home.arpa/x',
    'https://intranet/x',
    'https://intranet./x',
    // Round 2: push services listen on 443; another port aims at another service.
    'https://fcm.googleapis.com:8443/fcm/send/abc',
    'https://fcm.googleapis.com:25/x',
    'https://fcm.googleapis.com:80/x',
  ])('%s is refused', (endpoint) => {
    expect(endpointRefusal(endpoint, none)).toMatch(/endpoint must/);
  });

  test('PUSH_ALLOW_HOSTS exempts the hosts it names, however spelt', () => {
    const allow = allowedHosts(' Relay.Booth.LAN. , 127.0.0.1,, [::1] ');
    expect([...allow].sort()).toEqual(['127.0.0.1', '::1', 'relay.booth.lan']);
    expect(endpointRefusal('https://relay.booth.lan/push', allow)).toBeUndefined();
    expect(endpointRefusal('https://RELAY.booth.lan./push', allow)).toBeUndefined();
    expect(endpointRefusal('https://127.0.0.1:8443/push', allow)).toBeUndefined();
    expect(endpointRefusal('https://[::1]:8443/push', allow)).toBeUndefined();
    expect(endpointRefusal('https://other.booth.local/push', allow)).toMatch(/endpoint must/);
    expect(endpointRefusal('http://relay.booth.lan/push', allow)).toMatch(/https/);
  });

  test('normaliseHost', () => {
    expect(normaliseHost('[::1]')).toBe('::1');
    expect(normaliseHost('Foo.LocalHost..')).toBe('foo.localhost');
  });
});

/** A resolver answering from a script, one answer per call (the last repeats), and counting calls. */
function hostileDns(answers: string[][]) {
  const calls: string[] = [];
  const lookup = (
    host: string,
    _opts: unknown,
    cb: (err: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
  ) => {
    calls.push(host);
    const answer = answers[Math.min(calls.length - 1, answers.length - 1)] ?? [];
    process.nextTick(() =>
      cb(
        null,
        answer.map((address) => ({ address, family: net.isIP(address) })),
      ),
    );
  };
  return { lookup, calls };
}

/** An https request through `agent`; resolves with the error it failed with (they all fail here). */
function attempt(agent: https.Agent, host: string, port: number): Promise<NodeJS.ErrnoException> {
  return new Promise((resolve) => {
    const req = https.request({ host, port, path: '/push', method: 'POST', agent, timeout: 5_000 }, (res) => {
      res.resume();
      resolve(Object.assign(new Error(`answered ${res.statusCode}`), { code: 'ANSWERED' }));
    });
    req.on('error', (err) => resolve(err as NodeJS.ErrnoException));
    req.on('timeout', () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
    req.end('x');
  });
}

describe('createPushAgent', () => {
  test('a name resolving to an internal address is refused before any connection', async (t) => {
    const inside = await countingListener(t);
    for (const address of ['127.0.0.1', '169.254.169.254', '10.0.0.7', '::1', '::ffff:127.0.0.1']) {
      const dns = hostileDns([[address]]);
      const agent = createPushAgent({ lookup: dns.lookup });
      t.onTestFinished(() => agent.destroy());
      const err = await attempt(agent, 'push.attacker.example', inside.port);
      expect(err.code, address).toBe(ENDPOINT_NOT_PUBLIC);
      expect(err.message).toContain(address);
      expect(dns.calls).toEqual(['push.attacker.example']);
    }
    expect(inside.connections()).toBe(0);
  });

  test('one internal address among public ones is enough to refuse', async (t) => {
    const inside = await countingListener(t);
    const dns = hostileDns([['8.8.8.8', '127.0.0.1']]);
    const agent = createPushAgent({ lookup: dns.lookup });
    t.onTestFinished(() => agent.destroy());
    expect((await attempt(agent, 'push.attacker.example', inside.port)).code).toBe(ENDPOINT_NOT_PUBLIC);
    expect(inside.connections()).toBe(0);
  });

  test('DNS rebinding: each connection goes to the address checked for it, and no other', async (t) => {
    const inside = await countingListener(t);
    // Public for the first connection, loopback from then on.
    const dns = hostileDns([['8.8.8.8'], ['127.0.0.1']]);
    const agent = createPushAgent({ lookup: dns.lookup });
    t.onTestFinished(() => agent.destroy());
    // A push service's port: anything else is refused before connecting (see below).
    const first = await attempt(agent, 'rebind.attacker.example', 443);
    // It went to the address it had checked (this process may not reach the internet).
    expect(first.code).toBe('ENETUNREACH');
    expect(first.message).toContain('8.8.8.8');
    const second = await attempt(agent, 'rebind.attacker.example', 443);
    expect(second.code).toBe(ENDPOINT_NOT_PUBLIC);
    expect(dns.calls).toHaveLength(2); // one resolution per connection, none behind its back
    expect(inside.connections()).toBe(0);
  });

  test('IP addresses in the URL are checked without a lookup, in every spelling', async (t) => {
    const inside = await countingListener(t);
    const dns = hostileDns([['8.8.8.8']]);
    const agent = createPushAgent({ lookup: dns.lookup });
    t.onTestFinished(() => agent.destroy());
    for (const host of ['127.0.0.1', '0.0.0.0', '::ffff:127.0.0.1', '::ffff:7f00:1', '[::ffff:127.0.0.1]']) {
      expect((await attempt(agent, host, inside.port)).code, host).toBe(ENDPOINT_NOT_PUBLIC);
    }
    expect(dns.calls).toEqual([]);
    expect(inside.connections()).toBe(0);
  });

  test('round 2: a public host on another port than 443 is refused before any connection', async (t) => {
    const dns = hostileDns([['8.8.8.8']]);
    const agent = createPushAgent({ lookup: dns.lookup });
    t.onTestFinished(() => agent.destroy());
    for (const port of [25, 22, 8443, 5432]) {
      const err = await attempt(agent, 'push.attacker.example', port);
      expect(err.code, String(port)).toBe(ENDPOINT_NOT_PUBLIC);
      expect(err.message).toContain(`port ${port}`);
      const literal = await attempt(agent, '8.8.4.4', port);
      expect(literal.code).toBe(ENDPOINT_NOT_PUBLIC);
      expect(literal.message).toContain(`port ${port}`);
    }
    // 443 goes to the address checked (unreachable from this process, but tried).
    expect((await attempt(agent, 'push.attacker.example', 443)).code).toBe('ENETUNREACH');
  });

  test('hosts PUSH_ALLOW_HOSTS names are connected to as they are', async (t) => {
    const inside = await countingListener(t);
    const agent = createPushAgent({ allow: allowedHosts('localhost,127.0.0.1') });
    t.onTestFinished(() => agent.destroy());
    await attempt(agent, '127.0.0.1', inside.port);
    await attempt(agent, 'localhost', inside.port);
    expect(inside.connections()).toBe(2);
    // Not named: refused, even on the same machine.
    const other = createPushAgent({ allow: allowedHosts('localhost') });
    t.onTestFinished(() => other.destroy());
    expect((await attempt(other, '127.0.0.1', inside.port)).code).toBe(ENDPOINT_NOT_PUBLIC);
    expect(inside.connections()).toBe(2);
  });
});
