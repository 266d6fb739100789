// A stand-in server for test/launcher.test.ts: says what it was started with, counts the
// signals it hears for a while after the first, then exits with SERVER_EXIT_CODE. It follows
// its launcher as the real server does (run with the launcher's `--import tsx`).
import { followLauncher } from '../../src/launcher.ts';

const heard = [];
const say = (msg) => process.stdout.write(`${JSON.stringify(msg)}\n`);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    heard.push(signal);
    if (heard.length === 1) {
      setTimeout(
        () => {
          say({ heard });
          process.exit(Number(process.env.SERVER_EXIT_CODE ?? 0));
        },
        Number(process.env.SERVER_LISTEN_MS ?? 300),
      );
    }
  });
}
followLauncher();
say({
  ready: true,
  arena: process.env.MALLOC_ARENA_MAX ?? null,
  mmapThreshold: process.env.MALLOC_MMAP_THRESHOLD_ ?? null,
  pid: process.pid,
});
if (process.env.SERVER_EXIT_AT_ONCE) process.exit(Number(process.env.SERVER_EXIT_CODE));
setInterval(() => {}, 1000);
