/**
 * QR decoding off the event loop: zxing-wasm (qr.ts) in a worker thread of its own
 * (qr-thread.ts), one frame at a time. On the event loop each frame's 7-15 ms froze every
 * request (`npm run bench -- intake`, "gallery page p99 during intake" ≤ 50 ms). The thread
 * starts with the first frame and stops after IDLE_MS without one; one that failed is
 * replaced by the next frame.
 */
import { startThread, ThreadCalls } from '../../lib/thread.js';

/** RGBA pixels (4 bytes a pixel), copied to the thread: the caller makes thumbnails from them afterwards. */
export type QrTask = { rgba: Uint8Array; width: number; height: number };

const IDLE_MS = 30_000;

export class QrReader {
  private calls: ThreadCalls<QrTask, string[]> | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private closed = false;

  /** The texts of the QR codes in the pixels, read in the QR thread. */
  async read(rgba: Uint8Array, width: number, height: number): Promise<string[]> {
    if (this.closed) throw new Error('the QR reader is closed');
    clearTimeout(this.idleTimer);
    if (!this.calls || this.calls.failed) this.calls = new ThreadCalls(startThread(import.meta.url, 'qr-thread'), 'QR');
    const calls = this.calls;
    try {
      return await calls.call({ rgba, width, height });
    } finally {
      if (calls === this.calls && calls.pendingCount === 0 && !this.closed) {
        this.idleTimer = setTimeout(() => void this.stop(new Error('the QR thread was stopped')), IDLE_MS).unref();
      }
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.stop(new Error('the QR reader is closed'));
  }

  private async stop(reason: Error): Promise<void> {
    clearTimeout(this.idleTimer);
    const calls = this.calls;
    this.calls = undefined;
    await calls?.stop(reason);
  }
}
