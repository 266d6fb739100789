/**
 * Waiting for a condition without a clock of the wait's own (docs/development.md, "Tests and
 * time"). `waitUntil` polls `check` until it holds. What bounds a wait for a thing that never
 * happens is the running test's own timeout, not a shorter deadline that a loaded machine can
 * miss while the thing is merely slow. When the test ends first, the wait stops (so no poll
 * outlives its test and touches the next one's state) and says what it was waiting for.
 * Not for `describe.concurrent` suites: a global `onTestFinished` knows only the test running.
 *
 *   await waitUntil(() => app.photos.photosOf('Con')?.length === 2, 'b.jpg to be listed');
 */
import { onTestFinished } from 'vitest';

/** How often the condition is looked at: a cost, never a limit. */
const POLL_MS = 20;
/**
 * Only a backstop, longer than any test's timeout (the longest is 400 s): it ends a wait whose
 * test never reports its end (one started from a test's own clean-up, after the end was told).
 */
const BACKSTOP_MS = 15 * 60_000;

export async function waitUntil(
  check: () => boolean | Promise<boolean>,
  what: string | (() => string) = 'condition',
  /** Bounds the wait only outside a test (in a hook, which has no test to end it). */
  outsideTestMs = 60_000,
): Promise<void> {
  let testEnded = false;
  let deadline = Date.now() + BACKSTOP_MS;
  try {
    onTestFinished(() => {
      testEnded = true;
    });
  } catch {
    deadline = Date.now() + outsideTestMs; // called from a hook
  }
  while (!(await check())) {
    await new Promise((r) => setTimeout(r, POLL_MS));
    if (testEnded || Date.now() > deadline) {
      const message = `gave up waiting for ${typeof what === 'function' ? what() : what}`;
      // The test's own timeout has already failed it; this line says where it was stuck.
      if (testEnded) console.error(message);
      throw new Error(message);
    }
  }
}
