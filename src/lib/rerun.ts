/**
 * A pass that runs now or, when one is under way, once more right after it: never two at once,
 * never more than one waiting, however often a change notice or a timer asks. What the
 * background jobs that look for work (auto-print, face indexing, photo-code notices, the print
 * job follower) share.
 */
export class RerunningPass {
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly pass: () => Promise<void>,
    /** A failed pass: logged by the owner; the next request runs the pass again. */
    private readonly onError: (err: unknown) => void,
    /** True once the owner is closing: no pass starts, and none is run again. */
    private readonly stopped: () => boolean = () => false,
  ) {}

  /** Runs a pass now, or right after the one under way; resolves when no pass is due. */
  run(): Promise<void> {
    if (this.stopped()) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          await this.pass();
        } catch (err) {
          this.onError(err);
        }
      } while (this.again && !this.stopped());
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Resolves when the pass under way (and one due after it) has ended. */
  idle(): Promise<void> {
    return this.running ?? Promise.resolve();
  }
}
