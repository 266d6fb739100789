/**
 * Child process of test/adapters/sharp.test.ts: renders a photo again and again while it is
 * truncated and rewritten in place under the renders (a photo copied over while the server
 * renders it). A process that survives reports its counts; one that dies tells its signal.
 * Whether a render under way meets the old bytes, the new ones or a short file depends on the
 * machine's speed; that the process lives, and that every render settles, does not.
 */
import { readFile, truncate, writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeFitted, printJpeg, readHeader, renderFitted } from '../../src/adapters/sharp.js';
import { writeFixture } from './images-fixtures.js';

const [file = '', rounds = '40'] = process.argv.slice(2);
const good = await readFile(await writeFixture(file, { width: 1200, height: 900 }));
let rendered = 0;
let failed = 0;
let garbageRefused = 0;
const count = (p: Promise<unknown>) =>
  p.then(
    () => rendered++,
    () => failed++,
  );
for (let i = 0; i < Number(rounds); i++) {
  await writeFile(file, good);
  const renders = [
    count(renderFitted(file, { size: 400 }, { format: 'jpeg', quality: 80 })),
    count(decodeFitted(file, { size: 640, pixels: 'rgba' })),
    count(readHeader(file)),
    count(
      printJpeg(file, {
        scaled: { width: 800, height: 600 },
        extract: { left: 0, top: 0, width: 600, height: 600 },
        dpi: 300,
        quality: 90,
      }),
    ),
  ];
  // Truncated first, then written: the moment a reader mapping the file would fault.
  await sleep(i % 4);
  await truncate(file, 0);
  await sleep(1);
  await writeFile(file, Buffer.alloc(good.length, 0x5a));
  await Promise.all(renders);
  // A render after the rewrite reads the new (garbage) bytes: it fails, it does not show the old photo.
  await renderFitted(file, { size: 400 }, { format: 'jpeg', quality: 80 }).then(
    () => {},
    () => garbageRefused++,
  );
}
process.send?.({ rendered, failed, garbageRefused });
