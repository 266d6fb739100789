/**
 * Loaded before every test file (and into child servers through NODE_OPTIONS):
 * any TCP connection to a host other than loopback fails at once, so no test can
 * reach the real internet by accident. Loopback and unix sockets stay open.
 */
import net from 'node:net';

const loopback = new Set(['localhost', '127.0.0.1', '::1', '::ffff:127.0.0.1', '0.0.0.0']);

function hostOf(args: unknown[]): string | undefined {
  const [first, second] = args;
  if (Array.isArray(first)) return hostOf(first);
  if (first && typeof first === 'object') {
    const o = first as { host?: string; path?: string };
    if (o.path) return undefined; // unix socket
    return o.host ?? 'localhost';
  }
  if (typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first))) {
    return typeof second === 'string' ? second : 'localhost';
  }
  return undefined; // a path: unix socket
}

// Once per process: with `isolate: false` a worker runs this file again for every test file,
// and each run would wrap the guard in another guard.
const GUARDED = Symbol.for('convention-photo-service.no-internet');
const original = net.Socket.prototype.connect as typeof net.Socket.prototype.connect & { [GUARDED]?: true };
if (!original[GUARDED]) {
  const guarded = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    // A trailing dot names the same host (`localhost.` is loopback).
    const host = hostOf(args)?.replace(/\.+$/, '');
    if (host !== undefined && !loopback.has(host) && !host.startsWith('127.')) {
      const err = Object.assign(new Error(`tests may not reach the internet (tried ${host})`), { code: 'ENETUNREACH' });
      process.nextTick(() => this.destroy(err));
      return this;
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect & { [GUARDED]?: true };
  guarded[GUARDED] = true;
  net.Socket.prototype.connect = guarded;
}
