/**
 * Starts a worker thread from a module next to the caller: the built `.js` file, or, when
 * the sources run as `.ts` (tsx, vitest), a one-line bootstrap that registers tsx in the
 * thread first. Used by the mail thread (services/notifier) and SQLite's checkpoint thread.
 *
 * `ThreadCalls` and `answerCalls` are the two ends of request and reply over such a thread
 * (the photo library's header threads, the intake's QR thread).
 */
import { parentPort, Worker, type WorkerOptions } from 'node:worker_threads';

/** `base` is the caller's `import.meta.url`; `name` the module's name without extension. */
export function startThread(base: string, name: string, options: WorkerOptions = {}): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), options);
  const entry = new URL(`./${name}.ts`, base).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); })`;
  return new Worker(bootstrap, { ...options, eval: true });
}

type Call<Q> = { id: number; request: Q };
type CallReply<R> = { id: number; value: R } | { id: number; error: string };

/**
 * Calls into a worker thread that answers with `answerCalls`: each call's promise settles with
 * its own reply. When the thread fails or exits, every call under way and every later one
 * rejects (`failed` tells a caller to start another thread).
 */
export class ThreadCalls<Q, R> {
  private readonly pending = new Map<number, { resolve: (value: R) => void; reject: (err: Error) => void }>();
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
      if ('error' in reply) waiter?.reject(new Error(reply.error));
      else waiter?.resolve(reply.value);
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
   * `transfer`, which move to it (zero copy; unusable here afterwards).
   */
  call(request: Q, transfer: readonly ArrayBuffer[] = []): Promise<R> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<R>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
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
    for (const waiter of this.pending.values()) waiter.reject(this.failure);
    this.pending.clear();
  }
}

/**
 * The thread's end of `ThreadCalls`: answers each call with `handle`, one after the other in
 * arrival order (a handler may reuse one buffer from call to call); a handler that throws
 * rejects that call only.
 */
export function answerCalls<Q, R>(handle: (request: Q) => Promise<R> | R): void {
  let queue = Promise.resolve();
  parentPort?.on('message', (call: Call<Q>) => {
    queue = queue.then(async () => {
      let reply: CallReply<R>;
      try {
        reply = { id: call.id, value: await handle(call.request) };
      } catch (err) {
        reply = { id: call.id, error: String(err) };
      }
      parentPort?.postMessage(reply);
    });
  });
}
