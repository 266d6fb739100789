/**
 * One event's face vectors in memory, for the selfie search: every face of every indexed
 * photo as signed bytes in a WebAssembly memory the dot kernel scans (dot-kernel.ts). A photo
 * indexed again replaces its faces; unused rows are compacted away once they are a quarter.
 */
import { type DotScanner, dotScanner, wasmMemory } from './dot-kernel.js';

const PAGE = 65_536;

export type IndexedPhoto = { photoId: string; version: string; indexedAt: string };

export type Match = { photoId: string; version: string; similarity: number };

export class VectorIndex {
  private readonly memory = wasmMemory();
  private readonly scan: DotScanner = dotScanner(this.memory);
  /** The photo of each row (undefined: a row left by a replaced photo). */
  private owners: (IndexedPhoto | undefined)[] = [];
  private lengths = new Float64Array(64);
  private readonly photos = new Map<string, { photo: IndexedPhoto; rows: number[] }>();
  private unused = 0;

  constructor(readonly dim: number) {
    if (dim % 16 !== 0) throw new Error('the vector size must be a multiple of 16');
  }

  /** Faces held (rows in use). */
  get faceCount(): number {
    return this.owners.length - this.unused;
  }

  /** The version indexed for each photo (photos with no face included). */
  get indexed(): ReadonlyMap<string, { photo: IndexedPhoto }> {
    return this.photos;
  }

  /** Records a photo's faces (`vectors`: `dim` bytes each, one after the other), replacing what it had. */
  put(photo: IndexedPhoto, vectors: Int8Array): void {
    if (vectors.length % this.dim !== 0) throw new Error('vectors must be whole faces');
    this.drop(photo.photoId);
    const count = vectors.length / this.dim;
    const first = this.owners.length;
    this.reserve(first + count);
    new Int8Array(this.memory.buffer, first * this.dim, vectors.length).set(vectors);
    const rows: number[] = [];
    for (let f = 0; f < count; f++) {
      const row = first + f;
      this.owners.push(photo);
      this.lengths[row] = length(vectors.subarray(f * this.dim, (f + 1) * this.dim));
      rows.push(row);
    }
    this.photos.set(photo.photoId, { photo, rows });
    if (this.unused * 4 > this.owners.length) this.compact();
  }

  /** Forgets a photo. */
  remove(photoId: string): void {
    this.drop(photoId);
  }

  /**
   * The photos holding a face at least `minSimilarity` like `query`, each with its best face's
   * similarity, best first.
   */
  search(query: Int8Array, minSimilarity: number): Match[] {
    const rows = this.owners.length;
    const queryLength = length(query);
    if (rows === 0 || queryLength === 0) return [];
    if (query.length !== this.dim) throw new Error(`a query has ${this.dim} numbers`);
    const queryAt = rows * this.dim;
    const outAt = queryAt + this.dim;
    this.ensureBytes(outAt + rows * 4);
    new Int8Array(this.memory.buffer, queryAt, this.dim).set(query);
    this.scan(queryAt, 0, rows, this.dim, outAt);
    const dots = new Int32Array(this.memory.buffer, outAt, rows);
    const best = new Map<string, Match>();
    for (let row = 0; row < rows; row++) {
      const owner = this.owners[row];
      const rowLength = this.lengths[row] as number;
      if (!owner || rowLength === 0) continue;
      const similarity = (dots[row] as number) / (rowLength * queryLength);
      if (similarity < minSimilarity) continue;
      const seen = best.get(owner.photoId);
      if (!seen || seen.similarity < similarity) {
        best.set(owner.photoId, { photoId: owner.photoId, version: owner.version, similarity });
      }
    }
    return [...best.values()].sort((a, b) => b.similarity - a.similarity);
  }

  private drop(photoId: string): void {
    const held = this.photos.get(photoId);
    if (!held) return;
    for (const row of held.rows) this.owners[row] = undefined;
    this.unused += held.rows.length;
    this.photos.delete(photoId);
  }

  /** Moves the rows in use to the front, in order. */
  private compact(): void {
    const bytes = new Int8Array(this.memory.buffer);
    const owners: (IndexedPhoto | undefined)[] = [];
    const rowsOf = new Map<string, number[]>();
    for (let row = 0; row < this.owners.length; row++) {
      const owner = this.owners[row];
      if (!owner) continue;
      const to = owners.length;
      if (to !== row) bytes.copyWithin(to * this.dim, row * this.dim, (row + 1) * this.dim);
      this.lengths[to] = this.lengths[row] as number;
      owners.push(owner);
      const list = rowsOf.get(owner.photoId) ?? [];
      list.push(to);
      rowsOf.set(owner.photoId, list);
    }
    this.owners = owners;
    this.unused = 0;
    for (const [photoId, held] of this.photos) held.rows = rowsOf.get(photoId) ?? [];
  }

  private reserve(rows: number): void {
    // Room for the rows, a query and the scores the scan writes after them.
    this.ensureBytes(rows * this.dim + this.dim + rows * 4);
    if (this.lengths.length < rows) {
      const grown = new Float64Array(Math.max(rows, this.lengths.length * 2));
      grown.set(this.lengths);
      this.lengths = grown;
    }
  }

  private ensureBytes(bytes: number): void {
    const have = this.memory.buffer.byteLength;
    if (have >= bytes) return;
    // Doubling: growing a large memory copies it.
    const want = Math.max(bytes, have * 2);
    this.memory.grow(Math.ceil((want - have) / PAGE));
  }
}

function length(v: Int8Array): number {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += (v[i] as number) * (v[i] as number);
  return Math.sqrt(sum);
}
