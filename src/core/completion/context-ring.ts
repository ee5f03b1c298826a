import { cutAt } from "../base/surrogates";

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
  /**
   * Longest chunk, in characters: the lines farthest from the cursor's go first. At most the
   * prompt's room for extra context (defaultBudget.extraChars), which takes the newest chunks
   * until one does not fit: a longer chunk there would leave every file out.
   */
  readonly maxChunkChars: number;
  /** Longer lines are cut (a minified bundle's line of megabytes says little, and is not copied per keystroke). */
  readonly maxLineChars: number;
}

const defaults: ContextRingOptions = { maxChunks: 16, maxChunkLines: 32, similarity: 0.9, maxChunkChars: 2000, maxLineChars: 400 };

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

  /**
   * Adds the lines around `line` of a document, long lines cut and the chunk shortened (the lines
   * farthest from `line` first) to maxChunkChars; overlapping or near-identical chunks are replaced.
   */
  addAround(uri: string, path: string, source: LineSource, line: number): void {
    const { maxChunkLines, maxChunkChars, maxLineChars } = this.options;
    const half = Math.floor(maxChunkLines / 2);
    let startLine = Math.max(0, Math.min(line - half, source.lineCount - maxChunkLines));
    let endLine = Math.min(source.lineCount, startLine + maxChunkLines);
    const lineCap = Math.min(maxLineChars, maxChunkChars);
    const lines: string[] = [];
    for (let i = startLine; i < endLine; i++) lines.push(cutAt(source.lineText(i), lineCap));
    // Each line costs its length and a newline (the last one's is spared).
    let chars = lines.reduce((sum, l) => sum + l.length + 1, -1);
    while (chars > maxChunkChars && lines.length > 1) {
      const fromTop = line - startLine > endLine - 1 - line;
      chars -= (fromTop ? lines.shift()! : lines.pop()!).length + 1;
      if (fromTop) startLine++;
      else endLine--;
    }
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
    // A folder's URI forgets the files under it (a deleted or renamed folder).
    const under = uri.endsWith("/") ? uri : `${uri}/`;
    this.chunks = this.chunks.filter((c) => c.uri !== uri && !c.uri.startsWith(under));
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
