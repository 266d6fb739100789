/** Report rows shared by the load and soak benches. */
import type { BenchRow } from '../lib/report.js';
import { type LoadRun, percentileOf } from './client.js';

export function routeRows(run: LoadRun): BenchRow[] {
  const rows: BenchRow[] = [];
  for (const r of run.routes) {
    const sorted = [...r.latenciesMs].sort((a, b) => a - b);
    rows.push(
      { name: `${r.name}: requests/s (${r.count} in all)`, value: Math.round(r.count / run.durationS), unit: 'req/s' },
      { name: '  p50', value: percentileOf(sorted, 50), unit: 'ms' },
      { name: '  p99', value: percentileOf(sorted, 99), unit: 'ms' },
    );
  }
  return rows;
}

export function errorCount(run: LoadRun): { total: number; text: string } {
  const parts: string[] = [];
  let total = run.socketErrors + run.timeouts;
  for (const r of run.routes) {
    for (const [status, n] of Object.entries(r.unexpected)) {
      total += n;
      parts.push(`${r.name.split(' ')[0]} ${status} x${n}`);
    }
  }
  if (run.socketErrors) parts.push(`socket errors x${run.socketErrors}`);
  if (run.timeouts) parts.push(`timeouts x${run.timeouts}`);
  return { total, text: parts.join(', ') };
}
