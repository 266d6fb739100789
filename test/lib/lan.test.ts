import type { NetworkInterfaceInfo } from 'node:os';
import { expect, test } from 'vitest';
import { lanUrls, listensOnAll } from '../../src/lib/lan.js';

const v4 = (address: string, internal = false): NetworkInterfaceInfo => ({
  address,
  netmask: '255.255.255.0',
  family: 'IPv4',
  mac: '00:00:00:00:00:00',
  internal,
  cidr: `${address}/24`,
});

test('the private IPv4 addresses of the machine, one URL each; loopback, link-local and public ones left out', () => {
  const interfaces = {
    lo: [v4('127.0.0.1', true)],
    wlan0: [
      v4('192.168.1.23'),
      { ...v4('fe80::1'), family: 'IPv6' as const, address: 'fe80::1', cidr: 'fe80::1/64', scopeid: 2 },
    ],
    eth0: [v4('10.0.0.5'), v4('169.254.3.4')],
    tether: [v4('172.20.10.2'), v4('172.32.0.1')],
    wan: [v4('203.0.113.7')],
  };
  expect(lanUrls(interfaces, 3000)).toEqual([
    'http://192.168.1.23:3000/',
    'http://10.0.0.5:3000/',
    'http://172.20.10.2:3000/',
  ]);
  expect(lanUrls({}, 3000)).toEqual([]);
});

test('reachable from the Wi-Fi only when listening on every interface', () => {
  expect(listensOnAll('0.0.0.0')).toBe(true);
  expect(listensOnAll('::')).toBe(true);
  expect(listensOnAll('127.0.0.1')).toBe(false);
  expect(listensOnAll('localhost')).toBe(false);
});
