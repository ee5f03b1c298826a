/** A piece of another file worth showing the model. */
export interface ContextChunk {
  readonly uri: string;
  readonly path: string;
  readonly startLine: number;
  /** Exclusive. */
  readonly endLine: number;
  readonly text: string;
}

/** Read access to a document's lines (a VS Code TextDocument fits through a two-line wrapper). */
export interface LineSource {
  readonly lineCount: number;
  lineText(line: number): string;
}

export interface ContextRingOptions {
  readonly maxChunks: number;
  readonly maxChunkLines: number;
  /** Line-set similarity above which a new chunk replaces an older one. */
  readonly similarity: number;
}

const defaults: ContextRingOptions = { maxChunks: 16, maxChunkLines: 32, similarity: 0.9 };

/**
 * A bounded, deduplicated ring of chunks from recently opened, edited and saved files.
 * Chunks keep their order until replaced, so the extra context (which precedes the prefix in the
 * prompt) rarely changes and the server can keep reusing its evaluated prompt.
 */
export class ContextRing {
  private chunks: ContextChunk[] = [];
  private readonly options: ContextRingOptions;

  constructor(options: Partial<ContextRingOptions> = {}) {
    this.options = { ...defaults, ...options };
  }

  get size(): number {
    return this.chunks.length;
  }

  /** Adds the lines around `line` of a document; overlapping or near-identical chunks are replaced. */
  addAround(uri: string, path: string, source: LineSource, line: number): void {
    const half = Math.floor(this.options.maxChunkLines / 2);
    const startLine = Math.max(0, Math.min(line - half, source.lineCount - this.options.maxChunkLines));
    const endLine = Math.min(source.lineCount, startLine + this.options.maxChunkLines);
    const lines: string[] = [];
    for (let i = startLine; i < endLine; i++) lines.push(source.lineText(i));
    this.add({ uri, path, startLine, endLine, text: lines.join("\n") });
  }

  add(chunk: ContextChunk): void {
    if (chunk.text.replace(/\s+/g, "").length < 16) return; // nothing worth a token
    const lines = lineSet(chunk.text);
    this.chunks = this.chunks.filter(
      (c) => !(overlaps(c, chunk) || c.text === chunk.text || jaccard(lineSet(c.text), lines) > this.options.similarity),
    );
    this.chunks.push(chunk);
    if (this.chunks.length > this.options.maxChunks) this.chunks.splice(0, this.chunks.length - this.options.maxChunks);
  }

  /** Drops every chunk of a file (closed or deleted). */
  forget(uri: string): void {
    this.chunks = this.chunks.filter((c) => c.uri !== uri);
  }

  /**
   * Chunks from other files than `uri` that fit `budgetChars`: the newest are chosen, and returned
   * oldest first so that the newest sit nearest the cursor.
   */
  chunksFor(uri: string, budgetChars: number): ContextChunk[] {
    const picked: ContextChunk[] = [];
    let used = 0;
    for (let i = this.chunks.length - 1; i >= 0; i--) {
      const chunk = this.chunks[i] as ContextChunk;
      if (chunk.uri === uri) continue;
      if (used + chunk.text.length > budgetChars) break;
      used += chunk.text.length;
      picked.push(chunk);
    }
    return picked.reverse();
  }
}

function overlaps(a: ContextChunk, b: ContextChunk): boolean {
  return a.uri === b.uri && a.startLine < b.endLine && b.startLine < a.endLine;
}

function lineSet(text: string): Set<string> {
  return new Set(text.split("\n").map((l) => l.trim()).filter((l) => l !== ""));
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let common = 0;
  for (const line of a) if (b.has(line)) common++;
  const union = a.size + b.size - common;
  return union === 0 ? 1 : common / union;
}
