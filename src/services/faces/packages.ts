/**
 * Whether the face packages are installed (they are optional dependencies: a production install
 * may leave them out with `npm ci --omit=optional`; docs/gallery.md, "Find me by face"), and
 * where their files are. Resolving loads nothing: a server with face search off never imports
 * them.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const FACE_PACKAGES = [
  '@vladmandic/human',
  '@tensorflow/tfjs-core',
  '@tensorflow/tfjs-converter',
  '@tensorflow/tfjs-backend-wasm',
] as const;

export type FacePackages =
  | {
      ok: true;
      /** human's build for Node with TensorFlow.js's WASM backend. */
      humanWasmBuild: string;
      /** human's models folder. */
      modelDir: string;
      /** The folder holding tfjs-backend-wasm's `.wasm` files. */
      wasmDir: string;
    }
  | { ok: false; missing: string[] };

export function resolveFacePackages(): FacePackages {
  const require = createRequire(import.meta.url);
  const missing: string[] = [];
  const resolved = new Map<string, string>();
  for (const name of FACE_PACKAGES) {
    try {
      resolved.set(name, require.resolve(name));
    } catch {
      missing.push(name);
    }
  }
  if (missing.length > 0) return { ok: false, missing };
  // human's main file is dist/human.node.js (its tfjs-node build); the WASM build sits beside it.
  const humanDist = path.dirname(resolved.get('@vladmandic/human') as string);
  const humanWasmBuild = path.join(humanDist, 'human.node-wasm.js');
  const modelDir = path.join(humanDist, '..', 'models');
  const wasmDir = path.dirname(resolved.get('@tensorflow/tfjs-backend-wasm') as string);
  for (const file of [
    humanWasmBuild,
    path.join(modelDir, 'faceres.json'),
    path.join(wasmDir, 'tfjs-backend-wasm.wasm'),
  ]) {
    if (!existsSync(file)) return { ok: false, missing: [file] };
  }
  return { ok: true, humanWasmBuild, modelDir, wasmDir };
}
