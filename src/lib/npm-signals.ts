/**
 * Stopping under `npm start`, where the server runs in npm's child process: a terminal's
 * Ctrl-C reaches the server twice, once from the terminal (to the whole process group) and
 * once more from npm, which passes on every SIGINT and SIGTERM it receives. The server takes
 * a second signal as "stop now, skip the graceful part" (close-with-grace), so here a repeat
 * of the first signal that comes within NPM_RELAY_MS (npm's copy comes at once) is the same
 * signal; one after that, or another signal, stops at once as before.
 *
 * Started otherwise (`node dist/server.js`, the Docker image, systemd), close-with-grace
 * hears the signals itself and nothing here runs.
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
