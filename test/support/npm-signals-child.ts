// A stand-in server for test/lib/npm-signals.test.ts: stops on the signals npm passes on,
// says when it began stopping, and exits 0 when the test says its graceful part is done.
import { signalsRelayedByNpm, stopOnceOn } from '../../src/lib/npm-signals.js';

stopOnceOn(signalsRelayedByNpm(process.env), (signal) => process.send?.({ stopping: signal }));
process.on('message', (m) => {
  if (m === 'done') process.exit(0);
});
process.send?.({ ready: true });
