/**
 * Splits a file into the pieces the workspace index ranks and the chat attaches: runs of lines that
 * end where the code has a natural break (a blank line, or a new top-level statement), so a chunk
 * holds whole functions where they are short enough.
 */

export interface Chunk {
  /** Workspace-relative path, with forward slashes. */
  readonly path: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  /** Names the chunk defines (functions, classes, variables at the start of a line). */
  readonly defines: readonly string[];
}

export interface ChunkOptions {
  /** Longest chunk, in lines. */
  readonly maxLines?: number;
  /** A chunk shorter than this goes on past a natural break. */
  readonly minLines?: number;
}

const definitionPattern =
  /^\s*(?:export\s+)?(?:default\s+)?(?:public\s+|private\s+|protected\s+|static\s+|async\s+|pub\s+)*(?:function\*?|def|class|interface|type|enum|const|let|var|fn|func|struct|trait|impl|module)\s+([A-Za-z_$][\w$]*)/;
const methodPattern = /^\s*(?:async\s+|static\s+|public\s+|private\s+|protected\s+|get\s+|set\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::\s*[^={]+)?\{\s*$/;
const controlWords = new Set(["if", "for", "while", "switch", "catch", "return", "function"]);

/** The name a line defines, if it starts a definition. */
export function definedName(line: string): string | undefined {
  const definition = definitionPattern.exec(line);
  if (definition) return definition[1];
  const method = methodPattern.exec(line);
  if (method && !controlWords.has(method[1]!)) return method[1];
  return undefined;
}

function isBreakBefore(line: string): boolean {
  return line.trim() === "" || /^[^\s})\]]/.test(line);
}

export function chunkText(path: string, text: string, options: ChunkOptions = {}): Chunk[] {
  const maxLines = options.maxLines ?? 40;
  const minLines = options.minLines ?? 8;
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === "") lines.pop();
  const chunks: Chunk[] = [];
  let start = 0;
  const flush = (end: number) => {
    let last = end;
    while (last > start && lines[last - 1]!.trim() === "") last--;
    const body = lines.slice(start, last);
    if (body.some((l) => l.trim() !== "")) {
      const defines = body.map(definedName).filter((n): n is string => n !== undefined);
      chunks.push({ path, startLine: start + 1, endLine: last, text: body.join("\n"), defines });
    }
    start = end;
  };
  for (let i = 1; i < lines.length; i++) {
    const length = i - start;
    if (length >= maxLines || (length >= minLines && isBreakBefore(lines[i]!) && lines[i - 1]!.trim() === "")) flush(i);
  }
  if (start < lines.length) flush(lines.length);
  return chunks;
}
