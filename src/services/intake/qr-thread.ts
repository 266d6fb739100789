/**
 * The QR thread's code (started by qr-reader.ts): reads the codes of one frame per message
 * with zxing-wasm, in order, and answers with their texts.
 */
import { parentPort } from 'node:worker_threads';
import { readQrTexts } from './qr.js';
import type { QrReply, QrTask } from './qr-reader.js';

parentPort?.on('message', (task: QrTask) => {
  readQrTexts(task.rgba, task.width, task.height).then(
    (texts) => parentPort?.postMessage({ id: task.id, texts } satisfies QrReply),
    (err: unknown) => parentPort?.postMessage({ id: task.id, error: String(err) } satisfies QrReply),
  );
});
