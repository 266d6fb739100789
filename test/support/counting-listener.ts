/**
 * A TCP listener on loopback that counts the connections it is offered and hangs up at once:
 * the stand-in for an internal service in SSRF tests, where a connection at all is the harm.
 */
import net from 'node:net';
import type { TestContext } from 'vitest';

export type CountingListener = { port: number; connections: () => number };

export async function countingListener(t: TestContext): Promise<CountingListener> {
  let count = 0;
  const server = net.createServer((socket) => {
    count++;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.address() as net.AddressInfo).port, connections: () => count };
}
