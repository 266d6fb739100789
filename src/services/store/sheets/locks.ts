/**
 * In-process locks. The Sheets adapter serves one process (SPEC §10: PostgreSQL is the
 * store for several), so a lock per order makes read-check-write atomic for this process,
 * and a readers-writer lock keeps appends (which may insert rows and shift those below)
 * from running while a row is being rewritten in place.
 */

/** One holder per key at a time, FIFO. */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((r) => {
      release = r;
    });
    const tail = previous.then(() => mine);
    this.tails.set(key, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}

type Waiter = { exclusive: boolean; grant: () => void };

/** Many shared holders or one exclusive holder; waiters are served in arrival order. */
export class ReadWriteLock {
  private shared = 0;
  private exclusive = false;
  private readonly queue: Waiter[] = [];

  runShared<T>(fn: () => Promise<T>): Promise<T> {
    return this.run(false, fn);
  }

  runExclusive<T>(fn: () => Promise<T>): Promise<T> {
    return this.run(true, fn);
  }

  private async run<T>(exclusive: boolean, fn: () => Promise<T>): Promise<T> {
    await new Promise<void>((grant) => {
      this.queue.push({ exclusive, grant });
      this.pump();
    });
    try {
      return await fn();
    } finally {
      if (exclusive) this.exclusive = false;
      else this.shared -= 1;
      this.pump();
    }
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.exclusive) {
      const next = this.queue[0] as Waiter;
      if (next.exclusive) {
        if (this.shared > 0) return;
        this.exclusive = true;
      } else {
        this.shared += 1;
      }
      this.queue.shift();
      next.grant();
    }
  }
}
