/**
 * The one way a thread starts and the one way it is talked to. `startThread` starts a worker
 * from a module next to the caller: in the build, its own `.js` in dist/; from sources (vitest,
 * tsx), the module bundled with its imports into one `.mjs` first, so the thread starts in
 * milliseconds without a TypeScript loader (tests start threads by the hundred).
 * `ThreadCalls` and `answerCalls` are the two ends of request and reply; only the WAL-sync
 * thread uses shared memory instead (store/engines/sqlite/wal-sync-thread.ts says why).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parentPort, Worker, type WorkerOptions } from 'node:worker_threads';

/** `base` is the caller's `import.meta.url`; `name` the module's name without extension. */
export function startThread(base: string, name: string, options: WorkerOptions = {}): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), options);
  return new Worker(bundledThread(fileURLToPath(new URL(`./${name}.ts`, base))), {
    execArgv: withoutPreloads(process.execArgv),
    ...options,
  });
}

/**
 * The process's flags without its preloads (`--import`, `--require`, `--loader`): a thread
 * would run them again, and under Node 20 a TypeScript one fails there (tsx's hooks are not
 * in place yet when the thread's own preloads load). The bundle needs none of them.
 */
function withoutPreloads(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (/^--(import|require|loader|experimental-loader)$/.test(arg) || arg === '-r') i++;
    else if (!/^--(import|require|loader|experimental-loader)=/.test(arg)) out.push(arg);
  }
  return out;
}

/** Thread modules bundled in this process, by source file. */
const bundled = new Map<string, string>();

/**
 * `entry` and what it imports from the sources as one `.mjs` file (packages stay imports).
 * Written inside the project's node_modules so that those imports resolve as from the
 * sources; named by its content, so processes running other sources never share one.
 */
function bundledThread(entry: string): string {
  const known = bundled.get(entry);
  if (known) return known;
  // esbuild is a development dependency: only sources run as `.ts` get here.
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const result = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    write: false,
    logLevel: 'silent',
  });
  const code = (result.outputFiles[0] as { contents: Uint8Array }).contents;
  const root = path.resolve(fileURLToPath(new URL('../..', import.meta.url)));
  const dir = path.join(root, 'node_modules', '.cache', 'threads');
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = path.join(dir, `${path.basename(entry, '.ts')}-${hash}.mjs`);
  mkdirSync(dir, { recursive: true });
  // Written aside and renamed: other processes may be bundling the same thread.
  const aside = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
  writeFileSync(aside, code);
  renameSync(aside, file);
  bundled.set(entry, file);
  return file;
}

type Call<Q> = { id: number; request: Q } | { id: number; cancel: true };
type CallReply<R> = { id: number; value: R } | { id: number; error: string; cancelled?: true };

/** A call cut off by its signal before its handler finished (or began). */
export class CallCancelled extends Error {
  override name = 'CallCancelled';
}

type Waiter<R> = { resolve: (value: R) => void; reject: (err: Error) => void; unlisten: () => void };

/**
 * Calls into a worker thread that answers with `answerCalls`: each call's promise settles with
 * its own reply. When the thread fails or exits, every call under way and every later one
 * rejects (`failed` tells a caller to start another thread). A call's `signal` cuts it off:
 * the thread drops it if it has not begun (the call rejects with `CallCancelled` at once) or
 * aborts the handler's signal.
 */
export class ThreadCalls<Q, R> {
  private readonly pending = new Map<number, Waiter<R>>();
  private nextId = 1;
  private failure: Error | undefined;

  /** `name` says which thread in errors ("the QR thread exited"). */
  constructor(
    private readonly worker: Worker,
    name: string,
  ) {
    worker.on('message', (reply: CallReply<R>) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      waiter?.unlisten();
      if (!('error' in reply)) waiter?.resolve(reply.value);
      else waiter?.reject(reply.cancelled ? new CallCancelled(reply.error) : new Error(reply.error));
    });
    worker.on('error', (err) => this.fail(err));
    worker.on('exit', (code) => this.fail(new Error(`the ${name} thread exited (code ${code})`)));
  }

  get failed(): boolean {
    return this.failure !== undefined;
  }

  /** Calls under way. */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * `request` is copied to the thread (structured clone), except the buffers listed in
   * `transfer`, which move to it (zero copy; unusable here afterwards). Aborting `signal`
   * drops a call not yet started and aborts a running call's signal in the thread.
   */
  call(request: Q, options: { transfer?: readonly ArrayBuffer[]; signal?: AbortSignal | undefined } = {}): Promise<R> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    const { transfer = [], signal } = options;
    return new Promise<R>((resolve, reject) => {
      const cancel = () => this.worker.postMessage({ id, cancel: true } satisfies Call<Q>);
      signal?.addEventListener('abort', cancel, { once: true });
      const unlisten = () => signal?.removeEventListener('abort', cancel);
      this.pending.set(id, { resolve, reject, unlisten });
      this.worker.postMessage({ id, request } satisfies Call<Q>, transfer);
    });
  }

  /** Rejects the calls under way with `reason` and ends the thread. */
  async stop(reason: Error): Promise<void> {
    this.fail(reason);
    await this.worker.terminate();
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const waiter of this.pending.values()) {
      waiter.unlisten();
      waiter.reject(this.failure);
    }
    this.pending.clear();
  }
}

/**
 * The thread's end of `ThreadCalls`: answers each call with `handle`, one after the other in
 * arrival order (a handler may reuse one buffer from call to call); a handler that throws
 * rejects that call only. A call cut off by its caller is dropped if it has not begun, else
 * its `signal` aborts (the handler decides how soon it stops).
 */
export function answerCalls<Q, R>(handle: (request: Q, signal: AbortSignal) => Promise<R> | R): void {
  let queue = Promise.resolve();
  /** Calls not answered yet, with the switch that cuts each off. */
  const open = new Map<number, { controller: AbortController; started: boolean }>();
  const reply = (r: CallReply<R>) => parentPort?.postMessage(r);
  parentPort?.on('message', (call: Call<Q>) => {
    if ('cancel' in call) {
      const entry = open.get(call.id);
      if (!entry) return; // answered already
      entry.controller.abort();
      if (!entry.started) {
        open.delete(call.id);
        reply({ id: call.id, error: 'cut off before it started', cancelled: true });
      }
      return;
    }
    const entry = { controller: new AbortController(), started: false };
    open.set(call.id, entry);
    queue = queue.then(async () => {
      if (open.get(call.id) !== entry) return; // cut off while waiting
      entry.started = true;
      const { signal } = entry.controller;
      let answer: CallReply<R>;
      try {
        answer = { id: call.id, value: await handle(call.request, signal) };
      } catch (err) {
        answer = { id: call.id, error: String(err), ...(signal.aborted ? { cancelled: true as const } : {}) };
      }
      open.delete(call.id);
      reply(answer);
    });
  });
}
