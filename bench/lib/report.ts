/**
 * Benchmark output: every bench prints rows of (name, value, unit), and, where it has one,
 * the ratio against a baseline measured in the same run, and the target it must meet.
 */
export type BenchRow = {
  name: string;
  value: number;
  unit: string;
  /** Baseline figure measured in the same run, same unit. */
  baseline?: number;
  /** Human-readable target, e.g. ">= 0.7x" or "<= 15 ms". */
  target?: string;
  /** Whether the target is met (undefined when there is no target). */
  pass?: boolean;
};

export function printReport(title: string, rows: BenchRow[]): void {
  const lines = rows.map((r) => {
    const ratio = r.baseline ? ` (${(r.value / r.baseline).toFixed(2)}x baseline ${fmt(r.baseline)} ${r.unit})` : '';
    const target = r.target ? `  target ${r.target}: ${r.pass ? 'PASS' : 'MISS'}` : '';
    return `  ${r.name.padEnd(58)} ${fmt(r.value).padStart(10)} ${r.unit}${ratio}${target}`;
  });
  process.stdout.write(`\n== ${title}\n${lines.join('\n')}\n`);
}

function fmt(n: number): string {
  if (Number.isInteger(n)) return String(n);
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2;
}

export function percentile(values: number[], p: number): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] as number;
}
