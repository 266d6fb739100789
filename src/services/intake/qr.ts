/**
 * Reads QR codes from decoded pixels with zxing-wasm (ZXing-C++ compiled to WebAssembly),
 * loaded from its package's own .wasm file (never from a CDN, its browser default).
 *
 * Chosen by measurement, once, when the finder was built: on photographed codes (turned, tilted,
 * blurred, under glare) downscaled to 720 px, zxing-wasm and jsqr both read 24 of 24, but
 * zxing-wasm takes about 7 ms on a frame with a code and 15 ms on one without, jsqr 64 and
 * 93 ms: and most frames have none. It runs in a thread of its own (qr-reader.ts), and
 * bench/intake.bench.ts measures its cost per frame on every run.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, readBarcodes } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);
let prepared = false;

function prepare(): void {
  if (prepared) return;
  prepared = true;
  const wasm = readFileSync(require.resolve('zxing-wasm/reader/zxing_reader.wasm'));
  prepareZXingModule({
    overrides: { wasmBinary: wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength) as ArrayBuffer },
  });
}

/** Up to this many symbols are read from one frame (a poster's QR may be behind the attendee's). */
const MAX_SYMBOLS = 4;

/** The texts of the QR codes in RGBA pixels (4 bytes a pixel, `width` × `height`). */
export async function readQrTexts(rgba: Uint8Array, width: number, height: number): Promise<string[]> {
  prepare();
  const data = new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, width * height * 4);
  // zxing-wasm takes anything shaped like an ImageData; Node has no ImageData class.
  const image = { data, width, height, colorSpace: 'srgb' } as unknown as Parameters<typeof readBarcodes>[0];
  const results = await readBarcodes(image, { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: MAX_SYMBOLS });
  return results.filter((r) => r.isValid).map((r) => r.text);
}
