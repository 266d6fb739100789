/**
 * Stopping under `npm start`: a terminal's Ctrl-C reaches the server twice, from the terminal
 * and again from npm, and close-with-grace takes a second signal as "stop now". So a repeat of
 * the first signal within NPM_RELAY_MS is the same signal; a later one, or another signal,
 * stops at once. Started otherwise (node, Docker, systemd), nothing here runs.
 */

/** The longest npm's copy of a signal takes to follow the terminal's. */
const NPM_RELAY_MS = 1000;

/** The signals npm passes on to the script it runs; none when the server does not run under npm. */
export function signalsRelayedByNpm(env: NodeJS.ProcessEnv): ('SIGINT' | 'SIGTERM')[] {
  return env.npm_lifecycle_event ? ['SIGINT', 'SIGTERM'] : [];
}

/** Calls `stop` on the first of `signals`; ignores npm's copy of it; exits at once (code 1) on another. */
export function stopOnceOn(signals: NodeJS.Signals[], stop: (signal: NodeJS.Signals) => void): void {
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  const heard = (signal: NodeJS.Signals) => {
    if (!first) {
      first = { signal, at: performance.now() };
      stop(signal);
      return;
    }
    if (signal === first.signal && performance.now() - first.at < NPM_RELAY_MS) return;
    process.exit(1);
  };
  for (const signal of signals) process.on(signal, heard);
}
