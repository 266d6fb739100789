/**
 * A real IPP Everywhere printer on loopback: CUPS' `ippeveprinter` (ipp-tools.ts finds it), with
 * a private `dbus-daemon` (it wants a bus even with DNS-SD off), a PPD that makes it a photo
 * printer (the sizes asked for as PWG media, JPEG accepted, copies 1-999) and its spool kept,
 * so a test can open what arrived. Used by the tests (`ippPrinter(t, ...)`) and the print bench.
 *
 * Its print command (`-c`) writes each job's IPP attributes beside the spooled document
 * (`<file>.env`: IPP_COPIES, IPP_MEDIA, IPP_JOB_NAME, ...), and while `jam()` is in force it
 * reports `media-empty` (STATE: lines) and holds the job in `processing` until `clear()`:
 * a printer out of paper, as the dashboard must show it, with a job that can be cancelled.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';
import { ippTool } from './ipp-tools.js';

/** A size's PPD page size in points (1/72 in), width × length. */
const POINTS: Record<string, [number, number]> = { '4x6': [288, 432], '5x7': [360, 504], '8x10': [576, 720] };

export type ReceivedJob = {
  jobId: number;
  document: Buffer;
  /** The job's IPP attributes as the print command saw them (IPP_COPIES, IPP_MEDIA, ...). */
  attributes: Record<string, string>;
};

export type IppPrinter = {
  /** `ipp://127.0.0.1:<port>/ipp/print`. */
  url: string;
  port: number;
  /** Jobs the print command received so far, by job id. */
  received(): Promise<ReceivedJob[]>;
  /** From now on, jobs report media-empty and stay `processing` until `clear()`. */
  jam(): Promise<void>;
  clear(): Promise<void>;
  stop(): Promise<void>;
};

function ppd(sizes: readonly string[]): string {
  const first = sizes[0] as string;
  const lines = [
    '*PPD-Adobe: "4.3"',
    '*FormatVersion: "4.3"',
    '*FileVersion: "1.0"',
    '*LanguageVersion: English',
    '*LanguageEncoding: ISOLatin1',
    '*PCFileName: "PHOTO.PPD"',
    '*Manufacturer: "Test"',
    '*Product: "(Photo)"',
    '*ModelName: "Test Photo Printer"',
    '*ShortNickName: "Test Photo Printer"',
    '*NickName: "Test Photo Printer"',
    '*PSVersion: "(3010.000) 0"',
    '*LanguageLevel: "3"',
    '*ColorDevice: True',
    '*DefaultColorSpace: RGB',
    '*FileSystem: False',
    '*Throughput: "1"',
    '*LandscapeOrientation: Plus90',
    '*TTRasterizer: Type42',
    '*cupsFilter2: "image/jpeg image/jpeg 0 -"',
  ];
  for (const kw of ['PageSize', 'PageRegion']) {
    lines.push(`*OpenUI *${kw}/Media Size: PickOne`, `*OrderDependency: 10 AnySetup *${kw}`, `*Default${kw}: ${first}`);
    for (const s of sizes) {
      const [w, h] = POINTS[s] as [number, number];
      lines.push(`*${kw} ${s}/${s}: "<</PageSize[${w} ${h}]>>setpagedevice"`);
    }
    lines.push(`*CloseUI: *${kw}`);
  }
  lines.push(`*DefaultImageableArea: ${first}`, `*DefaultPaperDimension: ${first}`);
  for (const s of sizes) {
    const [w, h] = POINTS[s] as [number, number];
    lines.push(`*ImageableArea ${s}: "0 0 ${w} ${h}"`, `*PaperDimension ${s}: "${w} ${h}"`);
  }
  return `${lines.join('\n')}\n`;
}

function printCommand(control: string): string {
  return `#!/bin/sh
# ippeveprinter runs this for each job with the spooled document as $1.
env | grep -E '^(IPP_|CONTENT_TYPE=)' > "$1.env.tmp" && mv "$1.env.tmp" "$1.env"
if [ -f "${control}/jam" ]; then
  echo "STATE: +media-empty" >&2
  echo "INFO: out of paper" >&2
  while [ -f "${control}/jam" ]; do sleep 0.05; done
  echo "STATE: -media-empty" >&2
fi
exit 0
`;
}

/** Resolves once something accepts connections on the port, or rejects when the process ends first. */
async function listening(port: number, child: ChildProcess, log: () => string): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`ippeveprinter exited (${child.exitCode}):\n${log()}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1');
      s.once('connect', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
  await ended;
  clearTimeout(timer);
}

/** A private D-Bus bus: its address and its process. */
async function privateBus(dir: string): Promise<{ address: string; process: ChildProcess }> {
  const dbus = await ippTool('dbus-daemon');
  const config = path.join(dir, 'dbus.conf');
  await writeFile(
    config,
    `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN" "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig><type>custom</type><listen>unix:dir=${dir}</listen><auth>EXTERNAL</auth>
<policy context="default"><allow send_destination="*"/><allow receive_sender="*"/><allow own="*"/></policy></busconfig>\n`,
  );
  const child = spawn(dbus.file, ['--config-file', config, '--nofork', '--print-address=1'], {
    env: { ...process.env, ...dbus.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n')[0] as string;
      if (out.includes('\n')) resolve(line.trim());
    });
    child.once('exit', (code) => reject(new Error(`dbus-daemon exited (${code})`)));
  });
  return { address, process: child };
}

export async function startIppPrinter(opts: { sizes: readonly string[]; name?: string }): Promise<IppPrinter> {
  const printer = await ippTool('ippeveprinter');
  const dir = await mkdtemp(path.join(tmpdir(), 'ipp-printer-'));
  const spool = path.join(dir, 'spool');
  const control = path.join(dir, 'control');
  await Promise.all([mkdir(spool), mkdir(control)]);
  const command = path.join(dir, 'print-command.sh');
  await writeFile(command, printCommand(control), { mode: 0o755 });
  const ppdFile = path.join(dir, 'photo.ppd');
  await writeFile(ppdFile, ppd(opts.sizes));
  const bus = await privateBus(dir);
  const port = await freePort();
  const args = ['-r', 'off', '-n', 'localhost', '-p', String(port), '-d', spool, '-k', '-P', ppdFile, '-c', command];
  const child = spawn(printer.file, [...args, opts.name ?? 'Booth Printer'], {
    env: {
      ...process.env,
      ...printer.env,
      DBUS_SYSTEM_BUS_ADDRESS: bus.address,
      DBUS_SESSION_BUS_ADDRESS: bus.address,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr?.on('data', (d: Buffer) => {
    log = (log + d.toString()).slice(-4000);
  });
  try {
    await listening(port, child, () => log);
  } catch (err) {
    await stopProcess(bus.process);
    await rm(dir, { recursive: true, force: true });
    throw err;
  }
  return {
    url: `ipp://127.0.0.1:${port}/ipp/print`,
    port,
    async received() {
      const files = await readdir(spool);
      const jobs: ReceivedJob[] = [];
      for (const f of files.filter((name) => name.endsWith('.jpg.env'))) {
        const env = await readFile(path.join(spool, f), 'utf8');
        const attributes = Object.fromEntries(
          env
            .split('\n')
            .filter((l) => l.includes('='))
            .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
        );
        const document = await readFile(path.join(spool, f.slice(0, -'.env'.length)));
        jobs.push({ jobId: Number(attributes.IPP_JOB_ID), document, attributes });
      }
      return jobs.sort((a, b) => a.jobId - b.jobId);
    },
    async jam() {
      await writeFile(path.join(control, 'jam'), '');
    },
    async clear() {
      await rm(path.join(control, 'jam'), { force: true });
    },
    async stop() {
      await rm(path.join(control, 'jam'), { force: true });
      await stopProcess(child);
      await stopProcess(bus.process);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** A printer for one test, stopped when it ends. */
export async function ippPrinter(
  t: { onTestFinished(fn: () => unknown): void },
  opts: { sizes: readonly string[]; name?: string },
): Promise<IppPrinter> {
  const printer = await startIppPrinter(opts);
  t.onTestFinished(() => printer.stop());
  return printer;
}
