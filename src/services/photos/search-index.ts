/**
 * Search over an event's listed photos (docs/contract.md, "The photographer's metadata").
 * Performance machinery for `npm run bench -- metadata` (p99 ≤ 10 ms a search at 50,000 photos
 * with 5 keywords each): a scan of every photo's words costs that much per query word, so the
 * index keeps each distinct word once, sorted, with the photos holding it: a prefix is a binary
 * search and a run of neighbours. Built on the first search of a published (immutable) list.
 */
import { isPublicKeyword } from './metadata.js';
import type { Photo } from './types.js';

/** Lower case, accents removed (compatibility decomposition, combining marks dropped). */
function foldText(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

const WORD_SPLIT = /[^\p{L}\p{N}]+/u;

/** The words of a text, folded. */
export function searchWords(s: string): string[] {
  return foldText(s)
    .split(WORD_SPLIT)
    .filter((w) => w !== '');
}

export class SearchIndex {
  /** Distinct words, sorted (code unit order: a prefix's words are one run). */
  private readonly words: string[];
  /** For words[i], the positions (in `photos`) of the photos holding it, ascending. */
  private readonly postings: Uint32Array[];
  private readonly byNumber = new Map<string, number>();

  constructor(private readonly photos: readonly Photo[]) {
    const lists = new Map<string, number[]>();
    for (let i = 0; i < photos.length; i++) {
      const p = photos[i] as Photo;
      this.byNumber.set(p.number, i);
      const m = p.metadata;
      if (!m) continue;
      const texts: string[] = [];
      for (const k of m.keywords ?? []) if (isPublicKeyword(k)) texts.push(k);
      if (m.caption) texts.push(m.caption);
      if (m.title) texts.push(m.title);
      if (m.photographer) texts.push(m.photographer);
      for (const text of texts) {
        for (const w of searchWords(text)) {
          let list = lists.get(w);
          if (!list) {
            list = [];
            lists.set(w, list);
          }
          if (list[list.length - 1] !== i) list.push(i);
        }
      }
    }
    this.words = [...lists.keys()].sort();
    this.postings = this.words.map((w) => Uint32Array.from(lists.get(w) as number[]));
  }

  /** The photos matching every word of `query`, in gallery order; every photo for a query without words. */
  search(query: string): readonly Photo[] {
    const terms = [...new Set(searchWords(query))];
    if (terms.length === 0) return this.photos;
    let current: Uint32Array | undefined;
    for (const term of terms) {
      const mark = this.matches(term);
      if (current === undefined) {
        current = collect(mark);
      } else {
        let n = 0;
        for (const pos of current) if (mark[pos]) current[n++] = pos;
        current = current.subarray(0, n);
      }
      if (current.length === 0) return [];
    }
    return Array.from(current ?? [], (pos) => this.photos[pos] as Photo);
  }

  /** One byte per photo: 1 where a word of the photo starts with `term`, or its number is `term`. */
  private matches(term: string): Uint8Array {
    const mark = new Uint8Array(this.photos.length);
    const numbered = this.byNumber.get(term);
    if (numbered !== undefined) mark[numbered] = 1;
    let lo = 0;
    let hi = this.words.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.words[mid] as string) < term) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.words.length && (this.words[i] as string).startsWith(term); i++) {
      for (const pos of this.postings[i] as Uint32Array) mark[pos] = 1;
    }
    return mark;
  }
}

function collect(mark: Uint8Array): Uint32Array {
  let n = 0;
  for (let i = 0; i < mark.length; i++) if (mark[i]) n++;
  const out = new Uint32Array(n);
  n = 0;
  for (let i = 0; i < mark.length; i++) if (mark[i]) out[n++] = i;
  return out;
}

const indexes = new WeakMap<readonly Photo[], SearchIndex>();

/** The index of a published list of photos (built on first use, dropped with the list). */
export function searchIndexOf(photos: readonly Photo[]): SearchIndex {
  let index = indexes.get(photos);
  if (!index) {
    index = new SearchIndex(photos);
    indexes.set(photos, index);
  }
  return index;
}
