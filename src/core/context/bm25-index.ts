/**
 * A lexical index of the workspace's chunks, ranked with BM25 and a bonus for the chunk that
 * defines a name the query uses. Files are replaced whole (on save, on change), so the index is
 * always one consistent picture of the files it was given.
 */
import type { Chunk } from "./chunker";
import { searchTerms } from "./identifiers";

/** Chunk id and term count in one number (id * 2^16 + count): one unboxed slot per posting. */
const countLimit = 0x10000;

/**
 * One term's postings: the chunks that hold it and how often. A workspace has millions of
 * chunk-term pairs and most terms occur in one or two chunks, so each posting is one number in
 * one small array per term.
 */
class Posting {
  readonly packed: number[] = [];

  constructor(readonly term: string) {}

  get length(): number {
    return this.packed.length;
  }

  add(id: number, count: number): void {
    this.packed.push(id * countLimit + Math.min(count, countLimit - 1));
  }

  /** Order does not matter: the last posting takes the removed one's place. */
  remove(id: number): void {
    const packed = this.packed;
    for (let at = packed.length - 1; at >= 0; at--) {
      if (Math.floor(packed[at]! / countLimit) !== id) continue;
      packed[at] = packed[packed.length - 1]!;
      packed.pop();
      return;
    }
  }
}

interface Entry {
  readonly chunk: Chunk;
  readonly length: number;
  readonly defines: ReadonlySet<string>;
  /** The file's name without extension, lower case: a query term naming the file ranks it up. */
  readonly stem: string;
}

export interface SearchHit {
  readonly chunk: Chunk;
  readonly score: number;
}

export interface SearchOptions {
  readonly limit?: number;
  /** Most hits from one file, so a few files do not take every place. */
  readonly perFile?: number;
  /** Paths left out (the file the question is already about). */
  readonly exclude?: ReadonlySet<string>;
}

const k1 = 1.2;
const b = 0.75;
/** Added per query name the chunk defines: where a thing is defined beats where it is mentioned. */
const definitionBonus = 4;
/** Added per query term that names the file (`cart` for `src/cart.ts`). */
const pathBonus = 1.5;

export class Bm25Index {
  private readonly entries = new Map<number, Entry>();
  private readonly postings = new Map<string, Posting>();
  private readonly files = new Map<string, number[]>();
  private nextId = 0;
  private totalLength = 0;

  get fileCount(): number {
    return this.files.size;
  }

  get chunkCount(): number {
    return this.entries.size;
  }

  paths(): IterableIterator<string> {
    return this.files.keys();
  }

  has(path: string): boolean {
    return this.files.has(path);
  }

  /** A file's chunks in line order (they cover the file as indexed). */
  chunksOf(path: string): Chunk[] {
    return (this.files.get(path) ?? []).map((id) => this.entries.get(id)!.chunk);
  }

  /** Puts a file's chunks in place of what the index had for it. */
  setFile(path: string, chunks: readonly Chunk[]): void {
    this.removeFile(path);
    const ids: number[] = [];
    const stem = fileStem(path);
    for (const chunk of chunks) {
      const terms = searchTerms(chunk.text);
      const id = this.nextId++;
      for (const [term, count] of termCounts(terms)) {
        let posting = this.postings.get(term);
        if (posting === undefined) this.postings.set(term, (posting = new Posting(term)));
        posting.add(id, count);
      }
      this.entries.set(id, { chunk, length: terms.length, defines: new Set(chunk.defines.map((d) => d.toLowerCase())), stem });
      this.totalLength += terms.length;
      ids.push(id);
    }
    this.files.set(path, ids);
  }

  removeFile(path: string): void {
    const ids = this.files.get(path);
    if (ids === undefined) return;
    for (const id of ids) {
      const entry = this.entries.get(id)!;
      // The chunk's terms again, rather than a list of them kept for every chunk.
      for (const term of termCounts(searchTerms(entry.chunk.text)).keys()) {
        const posting = this.postings.get(term)!;
        posting.remove(id);
        if (posting.length === 0) this.postings.delete(term);
      }
      this.totalLength -= entry.length;
      this.entries.delete(id);
    }
    this.files.delete(path);
  }

  /** The best chunks for a query text, best first. */
  search(query: string, options: SearchOptions = {}): SearchHit[] {
    const limit = options.limit ?? 5;
    const perFile = options.perFile ?? 2;
    const weights = new Map<string, number>();
    for (const term of searchTerms(query)) weights.set(term, (weights.get(term) ?? 0) + 1);
    if (weights.size === 0 || this.entries.size === 0) return [];
    const scores = this.score(weights);
    const ranked = [...scores].sort((x, y) => y[1] - x[1] || x[0] - y[0]);
    const hits: SearchHit[] = [];
    const taken = new Map<string, number>();
    for (const [id, score] of ranked) {
      const { chunk } = this.entries.get(id)!;
      if (options.exclude?.has(chunk.path)) continue;
      const count = taken.get(chunk.path) ?? 0;
      if (count >= perFile) continue;
      taken.set(chunk.path, count + 1);
      hits.push({ chunk, score });
      if (hits.length >= limit) break;
    }
    return hits;
  }

  private score(weights: ReadonlyMap<string, number>): Map<number, number> {
    const n = this.entries.size;
    const average = this.totalLength / n || 1;
    const scores = new Map<number, number>();
    for (const [term, weight] of weights) {
      const posting = this.postings.get(term);
      if (posting === undefined) continue;
      const idf = Math.log(1 + (n - posting.length + 0.5) / (posting.length + 0.5));
      for (const value of posting.packed) {
        const id = Math.floor(value / countLimit);
        const tf = value % countLimit;
        const entry = this.entries.get(id)!;
        let score = (weight * idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * entry.length) / average));
        if (entry.defines.has(term)) score += definitionBonus * idf;
        if (entry.stem.includes(term)) score += pathBonus;
        scores.set(id, (scores.get(id) ?? 0) + score);
      }
    }
    return scores;
  }
}

function termCounts(terms: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const term of terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return counts;
}

function fileStem(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const dot = name.indexOf(".");
  return (dot > 0 ? name.slice(0, dot) : name).toLowerCase().replace(/[-_]/g, "");
}
