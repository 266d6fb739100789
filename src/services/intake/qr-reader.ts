/**
 * QR decoding off the event loop: zxing-wasm (qr.ts) runs in a worker thread of its own
 * (qr-thread.ts), one frame at a time.
 *
 * Why a thread: zxing takes 7-15 ms of CPU per frame (most frames show no code, the slower
 * case), and on the event loop each frame froze every request for that long: a thousand new
 * photos arriving during sales pushed the gallery's p99 past its 50 ms target (`npm run bench
 * -- intake`, "gallery page p99 during intake"; `npm run bench:load` lost a third of its
 * throughput while a fresh library was inspected). The thread starts with the first frame
 * and stops after IDLE_MS without one, so a server that isn't receiving photos holds no
 * extra isolate.
 */
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../lib/thread.js';

export type QrTask = { id: number; rgba: Uint8Array; width: number; height: number };
export type QrReply = { id: number; texts: string[] } | { id: number; error: string };

const IDLE_MS = 30_000;

type Waiter = { resolve: (texts: string[]) => void; reject: (err: Error) => void };

export class QrReader {
  private worker: Worker | undefined;
  private readonly pending = new Map<number, Waiter>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /** The texts of the QR codes in RGBA pixels (4 bytes a pixel), read in the QR thread. */
  read(rgba: Uint8Array, width: number, height: number): Promise<string[]> {
    if (this.closed) return Promise.reject(new Error('the QR reader is closed'));
    clearTimeout(this.idleTimer);
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise<string[]>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      // Copied, not transferred: the caller makes thumbnails from the same pixels afterwards.
      worker.postMessage({ id, rgba, width, height } satisfies QrTask);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop(new Error('the QR reader is closed'));
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread(import.meta.url, 'qr-thread');
    worker.on('message', (reply: QrReply) => {
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if ('error' in reply) waiter?.reject(new Error(reply.error));
      else waiter?.resolve(reply.texts);
      if (this.pending.size === 0) this.idleTimer = setTimeout(() => void this.stop(), IDLE_MS).unref();
    });
    const failed = (err: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.rejectAll(err);
    };
    worker.on('error', failed);
    worker.on('exit', (code) => failed(new Error(`the QR thread exited (code ${code})`)));
    this.worker = worker;
    return worker;
  }

  private async stop(err = new Error('the QR thread was stopped')): Promise<void> {
    clearTimeout(this.idleTimer);
    const worker = this.worker;
    this.worker = undefined;
    this.rejectAll(err);
    await worker?.terminate();
  }

  private rejectAll(err: Error): void {
    for (const waiter of this.pending.values()) waiter.reject(err);
    this.pending.clear();
  }
}
