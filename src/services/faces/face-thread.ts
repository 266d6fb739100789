/**
 * The face thread's code (started by face-threads.ts): loads the face engine with the first
 * call and describes the faces of one decoded picture per call, in order. The thread runs 5
 * steps nicer than the process (Linux only), so busy face threads take what the event loop
 * leaves (`npm run bench -- faces`: gallery page p99 ≤ 50 ms while indexing).
 */
import os from 'node:os';
import { answerCalls } from '../../lib/thread.js';
import { createFaceEngine, type FaceEngine, type FoundFace } from './engine.js';

/** RGB pixels, 3 bytes a pixel, row by row. */
export type FaceTask = { rgb: Uint8Array; width: number; height: number };

/** Steps of nice added to this thread's (0 = this thread alone on Linux). */
const NICER_BY = 5;

try {
  os.setPriority(0, Math.min(19, os.getPriority(0) + NICER_BY));
} catch {
  // Not allowed or not supported here: the thread runs at the process's priority.
}

let engine: Promise<FaceEngine> | undefined;

answerCalls<FaceTask, FoundFace[]>(async (task) => {
  engine ??= createFaceEngine();
  return (await engine).describe(task.rgb, task.width, task.height);
});
