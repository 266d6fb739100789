/**
 * Performance machinery for `npm run bench -- faces` ("search p99 ≤ 100 ms at 50,000 indexed
 * photos"): the dot products of a selfie's vector with every face of an event, in WebAssembly
 * SIMD (16 bytes a step) over signed-byte vectors in a WebAssembly memory; several times faster
 * than a plain loop (bench/RESULTS.md). The module is a few dozen instructions, assembled below,
 * so no toolchain is needed to build it.
 *
 *   scan(query, base, count, dim, out): for v in [0, count):
 *     out[v] = Σ_i query[i] · base[v·dim + i]   (i8 × i8 summed in i32; dim a multiple of 16)
 */

const I32 = 0x7f;
const V128 = 0x7b;

/** Unsigned LEB128 (sizes, indices, opcodes after the SIMD prefix). */
function leb(n: number): number[] {
  const out: number[] = [];
  let rest = n;
  do {
    let byte = rest & 0x7f;
    rest >>>= 7;
    if (rest !== 0) byte |= 0x80;
    out.push(byte);
  } while (rest !== 0);
  return out;
}

/** i32.const with a small non-negative value (< 64: one byte of signed LEB128). */
const i32Const = (n: number) => [0x41, n];
const name = (s: string) => [...leb(s.length), ...Buffer.from(s, 'utf8')];
const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
const vector = (items: number[][]) => [...leb(items.length), ...items.flat()];
const simd = (op: number, ...immediates: number[]) => [0xfd, ...leb(op), ...immediates];

// Parameters, then locals, by index.
const [QUERY, BASE, COUNT, DIM, OUT, V, J, ACC, A, B] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9] as const;
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const tee = (i: number) => [0x22, i];
const add = 0x6a;

const V128_LOAD = 0x00;
const V128_CONST = 0x0c;
const I32X4_EXTRACT_LANE = 0x1b;
const I16X8_EXTEND_LOW_I8X16_S = 0x87;
const I16X8_EXTEND_HIGH_I8X16_S = 0x88;
const I32X4_ADD = 0xae;
const I32X4_DOT_I16X8_S = 0xba;

/** acc += dot(extend(a), extend(b)) for one half (low or high 8 bytes) of the 16 loaded. */
const half = (extend: number) => [
  ...get(A),
  ...simd(extend),
  ...get(B),
  ...simd(extend),
  ...simd(I32X4_DOT_I16X8_S),
  ...simd(I32X4_ADD),
];

const lane = (n: number) => [...get(ACC), ...simd(I32X4_EXTRACT_LANE, n)];

// biome-ignore format: one instruction (or group) a line reads better
const body = [
  0x02, 0x40, // block (to leave the outer loop)
  0x03, 0x40, // loop over vectors
  ...get(V), ...get(COUNT), 0x4f /* i32.ge_u */, 0x0d, 1, // br_if out of the block
  ...simd(V128_CONST, ...new Array<number>(16).fill(0)), ...set(ACC),
  ...i32Const(0), ...set(J),
  0x03, 0x40, // loop over 16-byte steps
  ...get(QUERY), ...get(J), add, ...simd(V128_LOAD, 0, 0), ...set(A),
  ...get(BASE), ...get(J), add, ...simd(V128_LOAD, 0, 0), ...set(B),
  ...get(ACC), ...half(I16X8_EXTEND_LOW_I8X16_S), ...half(I16X8_EXTEND_HIGH_I8X16_S), ...set(ACC),
  ...get(J), ...i32Const(16), add, ...tee(J), ...get(DIM), 0x49 /* i32.lt_u */, 0x0d, 0, // br_if next step
  0x0b, // end of the steps
  ...get(OUT), ...lane(0), ...lane(1), add, ...lane(2), add, ...lane(3), add,
  0x36, 2, 0, // i32.store (align 4, offset 0)
  ...get(OUT), ...i32Const(4), add, ...set(OUT),
  ...get(BASE), ...get(DIM), add, ...set(BASE),
  ...get(V), ...i32Const(1), add, ...set(V),
  0x0c, 0, // br: next vector
  0x0b, 0x0b, // end of loop, end of block
  0x0b, // end of function
];

const code = [
  ...vector([
    [2, I32],
    [3, V128],
  ]),
  ...body,
];

const MODULE_BYTES = new Uint8Array([
  ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
  ...section(1, vector([[0x60, ...vector([[I32], [I32], [I32], [I32], [I32]]), 0]])), // (i32 × 5) -> ()
  ...section(2, vector([[...name('env'), ...name('memory'), 0x02, 0x00, 1]])), // memory imported, ≥ 1 page
  ...section(3, vector([[0]])),
  ...section(7, vector([[...name('scan'), 0x00, 0]])),
  ...section(10, vector([[...leb(code.length), ...code]])),
]);

/** The little of the WebAssembly API used here (the project's TypeScript libraries don't declare it). */
export type WasmMemory = { readonly buffer: ArrayBuffer; grow(pages: number): number };
type WasmApi = {
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
};
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** A growable WebAssembly memory of one page (64 KiB) to start with. */
export const wasmMemory = (): WasmMemory => new wasm.Memory({ initial: 1 });

let compiled: object | undefined;

export type DotScanner = (
  queryOffset: number,
  baseOffset: number,
  count: number,
  dim: number,
  outOffset: number,
) => void;

/** The kernel over `memory` (offsets in bytes; `out` gets one i32 per vector, 4-byte aligned). */
export function dotScanner(memory: WasmMemory): DotScanner {
  compiled ??= new wasm.Module(MODULE_BYTES);
  const instance = new wasm.Instance(compiled, { env: { memory } });
  return instance.exports.scan as DotScanner;
}
