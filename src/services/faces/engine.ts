/**
 * The face engine: the one adapter of @vladmandic/human (docs/gallery.md, "Find me by face"),
 * run in the face thread, never on the event loop: BlazeFace finds faces, FaceMesh aligns them,
 * FaceRes describes each with 1,024 numbers. Nothing is fetched: the models come from human's
 * `models/` folder through an I/O handler for files (TensorFlow.js has none in Node), the WASM
 * backend from its package. Vectors leave normalised and quantised to signed bytes: 1 KiB a
 * face, and a cosine that moves at most 0.003 (the packaged photos).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveFacePackages } from './packages.js';

/** Numbers per face vector (FaceRes). */
export const VECTOR_SIZE = 1024;

/** The record's `model` for vectors made here: vectors of another model are not compared with these. */
export const FACE_MODEL = 'human-3/blazeface+facemesh+faceres/i8';

/** A face found: its box's area (px², for "the largest face") and its quantised vector. */
export type FoundFace = { area: number; vector: Int8Array };

export type FaceEngine = { describe(rgb: Uint8Array, width: number, height: number): Promise<FoundFace[]> };

/** The little of human's API used here (its own types live in the optional package). */
type Tensor = { dispose(): void };
type HumanFace = { box: [number, number, number, number]; embedding?: number[] };
type HumanInstance = {
  load(): Promise<void>;
  detect(input: Tensor): Promise<{ face: HumanFace[]; error?: string | null }>;
  tf: {
    tensor4d(data: Uint8Array, shape: [number, number, number, number], dtype: 'int32'): Tensor;
    io: { registerLoadRouter(router: (url: unknown) => { load(): Promise<unknown> } | null): void };
  };
};
type HumanModule = { Human: new (config: Record<string, unknown>) => HumanInstance };

const off = { enabled: false };

/** What human runs: faces only, every frame analysed afresh (its video caches off). */
function humanConfig(modelDir: string, wasmDir: string): Record<string, unknown> {
  return {
    backend: 'wasm',
    wasmPath: `${wasmDir}${path.sep}`,
    wasmPlatformFetch: false,
    modelBasePath: pathToFileURL(`${modelDir}${path.sep}`).href,
    debug: process.env.FACE_DEBUG === '1',
    async: true,
    cacheModels: false,
    validateModels: false,
    cacheSensitivity: 0,
    filter: off,
    face: {
      enabled: true,
      // Group photos: up to 50 faces; rotation corrected so tilted heads are aligned too.
      detector: { rotation: true, maxDetected: 50, minConfidence: 0.3, skipFrames: 0, skipTime: 0, return: false },
      mesh: { enabled: true },
      description: { enabled: true, skipFrames: 0, skipTime: 0 },
      iris: off,
      emotion: off,
      antispoof: off,
      liveness: off,
    },
    body: off,
    hand: off,
    object: off,
    gesture: off,
    segmentation: off,
  };
}

/** A TensorFlow.js I/O handler reading a graph model (model.json and its weight files) from disk. */
function fileModelHandler(url: unknown): { load(): Promise<unknown> } | null {
  if (typeof url !== 'string' || !url.startsWith('file://')) return null;
  const file = new URL(url);
  return {
    async load() {
      // model.json as TensorFlow.js wrote it (topology, signature, metadata), its weights read from their files.
      const { weightsManifest, ...artifacts } = JSON.parse(readFileSync(file, 'utf8')) as {
        weightsManifest: { paths: string[]; weights: unknown[] }[];
      };
      const specs: unknown[] = [];
      const parts: Buffer[] = [];
      for (const group of weightsManifest) {
        specs.push(...group.weights);
        for (const part of group.paths) parts.push(readFileSync(new URL(part, file)));
      }
      const weights = Buffer.concat(parts);
      return {
        ...artifacts,
        weightSpecs: specs,
        weightData: weights.buffer.slice(weights.byteOffset, weights.byteOffset + weights.length),
      };
    },
  };
}

/**
 * Scaled so that the largest component is 127 (the length drops out of a cosine), rounded to
 * signed bytes.
 * @public bench/faces.bench.ts reads it from the built module (dist/), out of knip's sight.
 */
export function quantise(values: ArrayLike<number>): Int8Array {
  let sum = 0;
  let max = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] as number;
    sum += v * v;
    max = Math.max(max, Math.abs(v));
  }
  const out = new Int8Array(values.length);
  if (sum === 0 || max === 0) return out;
  const scale = 127 / max;
  for (let i = 0; i < values.length; i++) out[i] = Math.round((values[i] as number) * scale);
  return out;
}

/** Loads the models (about 0.5 s); throws when the face packages are not installed. */
export async function createFaceEngine(): Promise<FaceEngine> {
  const found = resolveFacePackages();
  if (!found.ok) throw new Error(`the face packages are not installed: ${found.missing.join(', ')}`);
  const require = createRequire(import.meta.url);
  const { Human } = require(found.humanWasmBuild) as HumanModule;
  const human = new Human(humanConfig(found.modelDir, found.wasmDir));
  human.tf.io.registerLoadRouter(fileModelHandler);
  await human.load();
  return {
    async describe(rgb, width, height) {
      const input = human.tf.tensor4d(rgb, [1, height, width, 3], 'int32');
      try {
        const result = await human.detect(input);
        if (result.error) throw new Error(`face detection failed: ${result.error}`);
        return result.face
          .filter((f) => f.embedding?.length === VECTOR_SIZE)
          .map((f) => ({ area: f.box[2] * f.box[3], vector: quantise(f.embedding as number[]) }));
      } finally {
        input.dispose();
      }
    },
  };
}
