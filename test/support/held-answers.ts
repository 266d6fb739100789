/**
 * A stub's answers held back on request (a transport that hangs): `answer(fn)` sends at once
 * unless `hold()` was called; `release()` sends the held ones; `held(n)` resolves once `n`
 * wait. The SendGrid stub and the push service share it.
 */
export class HeldAnswers {
  private holding = false;
  private answeredCount = 0;
  private readonly waiting: (() => void)[] = [];
  private readonly waiters: { n: number; resolve: () => void }[] = [];

  /** Sends `send` now, or when released; `send` returns false when the client gave up. */
  answer(send: () => boolean): void {
    const counted = () => {
      if (send()) this.answeredCount++;
    };
    if (!this.holding) {
      counted();
      return;
    }
    this.waiting.push(counted);
    for (const w of this.waiters.filter((w) => this.waiting.length >= w.n)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
  }

  hold(): void {
    this.holding = true;
  }

  held(n = 1): Promise<void> {
    if (this.waiting.length >= n) return Promise.resolve();
    return new Promise<void>((resolve) => this.waiters.push({ n, resolve }));
  }

  release(): void {
    this.holding = false;
    for (const send of this.waiting.splice(0)) send();
  }

  get answered(): number {
    return this.answeredCount;
  }
}
