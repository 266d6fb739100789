/** A GET on one kept-alive loopback connection, resolving with its time in ms (a visitor paging the gallery). */
import http from 'node:http';

export function timedGetter(): { get(port: number, url: string): Promise<number>; close(): void } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return {
    get: (port, url) =>
      new Promise((resolve, reject) => {
        const started = performance.now();
        http
          .get({ host: '127.0.0.1', port, path: url, agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(performance.now() - started));
          })
          .on('error', reject);
      }),
    close: () => agent.destroy(),
  };
}
