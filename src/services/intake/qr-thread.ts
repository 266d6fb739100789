/**
 * The QR thread's code (started by qr-reader.ts): reads the codes of one frame per call with
 * zxing-wasm, in order, and answers with their texts.
 */
import { answerCalls } from '../../lib/thread.js';
import { readQrTexts } from './qr.js';
import type { QrTask } from './qr-reader.js';

answerCalls<QrTask, string[]>((task) => readQrTexts(task.rgba, task.width, task.height));
