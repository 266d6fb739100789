/**
 * A build step with a progress line (DEVELOPERS.md: long jobs show progress). `tsc` and `vite`
 * print nothing until they are done, which on a first start is a minute or more; meanwhile
 * this shows what runs and for how long, and, when the step has run before on this machine, a
 * bar against how long it took then. On a terminal the line is redrawn in place; elsewhere (a
 * log, CI) a line is written at the start, every 15 seconds and at the end.
 */
import { spawn } from 'node:child_process';

const BAR = 20;

function seconds(ms) {
  return `${Math.round(ms / 1000)} s`;
}

/** The progress text after `elapsedMs`, against `expectedMs` (the last run's time) when known. */
export function progressText(label, elapsedMs, expectedMs) {
  if (!expectedMs) return `${label}: ${seconds(elapsedMs)} (the first build takes a minute or two)`;
  const done = Math.min(BAR - 1, Math.floor((elapsedMs / expectedMs) * BAR));
  return `${label}: [${'#'.repeat(done)}${'-'.repeat(BAR - done)}] ${seconds(elapsedMs)} of about ${seconds(expectedMs)}`;
}

/**
 * Runs `command` (its own output goes to this process's), showing progress on `out`; resolves
 * with its exit code and how long it ran.
 */
export function runWithProgress(command, args, { label, expectedMs, out = process.stdout, everyMs } = {}) {
  const tty = Boolean(out.isTTY);
  const interval = everyMs ?? (tty ? 500 : 15_000);
  const started = Date.now();
  const show = () => {
    const text = progressText(label, Date.now() - started, expectedMs);
    out.write(tty ? `\r\x1b[2K${text}` : `${text}\n`);
  };
  out.write(`${label}…\n`);
  const timer = setInterval(show, interval);
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'inherit' });
    const finish = (code) => {
      clearInterval(timer);
      if (tty) out.write('\r\x1b[2K');
      resolve({ code, ms: Date.now() - started });
    };
    child.once('error', (err) => {
      out.write(`${label}: ${err.message}\n`);
      finish(1);
    });
    child.once('exit', (code, signal) => finish(code ?? (signal ? 1 : 0)));
  });
}
