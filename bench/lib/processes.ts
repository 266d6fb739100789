/**
 * Child processes for the benches that measure servers side by side: each server runs the
 * bench file itself in a "role" (an environment variable says which), pinned to core 0 when
 * `taskset` exists so that the load generator has core 1 to itself.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';

export function hasCommand(cmd: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

export const canPin = hasCommand('taskset');

/**
 * On a shared machine, other work competes for the same two cores; as root a bench can raise
 * the priority of everything it measures (servers and load generator) alike, so that the
 * figures depend less on what else runs. Without root it runs at normal priority.
 */
export const canBoost = process.getuid?.() === 0 && hasCommand('nice');

/** The command line for `cmd args`: with raised priority when asked, pinned to `core` when set. */
export function placed(cmd: string, args: string[], opts: { core?: number; boost?: boolean } = {}): [string, string[]] {
  const full = [
    ...(opts.boost && canBoost ? ['nice', '-n', '-10'] : []),
    ...(canPin && opts.core !== undefined ? ['taskset', '-c', String(opts.core)] : []),
    cmd,
    ...args,
  ];
  return [full[0] as string, full.slice(1)];
}

/**
 * Runs `script` (a bench file) in a child with `roleVar=role`; resolves with the child and its
 * first message (the child says it is listening, or what it measured).
 */
export function startRole<M>(opts: {
  script: string;
  roleVar: string;
  role: string;
  env?: Record<string, string>;
  core?: number;
  boost?: boolean;
  /** A plain `.mjs` run by plain `node`, without this process's loader (tsx). */
  plain?: boolean;
}): Promise<{ child: ChildProcess; msg: M }> {
  const [cmd, cmdArgs] = placed(process.execPath, [...(opts.plain ? [] : process.execArgv), opts.script], opts);
  const child = spawn(cmd, cmdArgs, {
    env: { ...process.env, ...opts.env, [opts.roleVar]: opts.role },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (msg) => resolve({ child, msg: msg as M }));
    child.once('exit', (code) => reject(new Error(`${opts.role} child exited with ${code}`)));
    child.once('error', reject);
  });
}

/** SIGTERM and wait for the exit; a child stopped with SIGSTOP is woken first. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  await exited;
}
