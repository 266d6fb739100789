/**
 * The face thread's code (started by face-threads.ts): loads the face engine (engine.ts) with
 * the first call and describes the faces of one decoded picture per call, in order.
 */
import { answerCalls } from '../../lib/thread.js';
import { createFaceEngine, type FaceEngine, type FoundFace } from './engine.js';

/** RGB pixels, 3 bytes a pixel, row by row. */
export type FaceTask = { rgb: Uint8Array; width: number; height: number };

let engine: Promise<FaceEngine> | undefined;

answerCalls<FaceTask, FoundFace[]>(async (task) => {
  engine ??= createFaceEngine();
  return (await engine).describe(task.rgb, task.width, task.height);
});
