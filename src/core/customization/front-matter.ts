/**
 * The YAML front matter of the customization files (`---` lines around it, at the top), as the
 * files are committed for Copilot: parsed with the `yaml` package, each problem placed at its line
 * and column in the file, so the editor can underline it where it is. What VS Code reads but YAML
 * does not (`applyTo: **\/*.ts` unquoted, lists indented with tabs) is rewritten first (lenient-yaml.ts).
 */
import { isMap, isScalar, parseDocument, type Pair } from "yaml";
import { lenientYaml } from "./lenient-yaml";

/** A place in the file: 0-based line and column. */
export interface FilePosition {
  readonly line: number;
  readonly column: number;
}

export interface FileProblem {
  readonly message: string;
  /** `error`: the file cannot be used; `warning`: it is used, this part ignored. */
  readonly severity: "error" | "warning";
  readonly start: FilePosition;
  readonly end: FilePosition;
}

export interface FrontMatter {
  /** The front matter's keys and values (empty when the file has none or it is broken). */
  readonly attributes: Readonly<Record<string, unknown>>;
  /** Where each key is written, for problems about its value. */
  readonly keys: ReadonlyMap<string, { start: FilePosition; end: FilePosition }>;
  /** The text after the front matter. */
  readonly body: string;
  /** The 0-based line of the file where the body starts. */
  readonly bodyLine: number;
  readonly problems: readonly FileProblem[];
}

const fence = /^---[ \t]*$/;
const closing = /^(---|\.\.\.)[ \t]*$/;

/** Splits and parses a file's front matter; a file without one is all body. */
export function parseFrontMatter(text: string): FrontMatter {
  const source = text.startsWith("\uFEFF") ? text.slice(1) : text;
  const lines = source.split(/\r?\n/);
  if (!fence.test(lines[0] ?? "")) return { attributes: {}, keys: new Map(), body: source, bodyLine: 0, problems: [] };
  const end = lines.findIndex((line, i) => i > 0 && closing.test(line));
  if (end < 0) {
    const at = { line: 0, column: 0 };
    return { attributes: {}, keys: new Map(), body: "", bodyLine: lines.length, problems: [{ message: "The front matter opened by --- on the first line is never closed by another --- line.", severity: "error", start: at, end: { line: 0, column: 3 } }] };
  }
  const yamlText = lines.slice(1, end).join("\n");
  const body = lines.slice(end + 1).join("\n");
  const lenient = lenientYaml(yamlText);
  const inFile = positionsOf(yamlText, 1);
  const place = (offset: number) => inFile(lenient.originOf(offset));
  const document = parseDocument(lenient.text, { prettyErrors: false, uniqueKeys: true });
  const problems: FileProblem[] = document.errors.map((e) => ({ message: `Bad YAML: ${e.message}.`, severity: "error", start: place(e.pos[0]), end: place(Math.max(e.pos[1], e.pos[0] + 1)) }));
  const keys = new Map<string, { start: FilePosition; end: FilePosition }>();
  if (problems.length > 0) return { attributes: {}, keys, body, bodyLine: end + 1, problems };
  const contents = document.contents;
  if (contents === null) return { attributes: {}, keys, body, bodyLine: end + 1, problems };
  if (!isMap(contents)) {
    const range = contents.range ?? [0, 1];
    return { attributes: {}, keys, body, bodyLine: end + 1, problems: [{ message: "The front matter must be keys and values (key: value), not a list or a single value.", severity: "error", start: place(range[0]), end: place(range[1]) }] };
  }
  for (const pair of contents.items as Pair[]) {
    const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
    const range = (pair.key as { range?: [number, number, number] } | null)?.range;
    if (key !== undefined && range) keys.set(key, { start: place(range[0]), end: place(range[1]) });
  }
  try {
    const attributes = document.toJS({ maxAliasCount: 50 }) as Record<string, unknown>;
    return { attributes, keys, body, bodyLine: end + 1, problems };
  } catch (error) {
    // An alias YAML cannot resolve (or too many of them): the file's problem, not the reader's.
    const range = contents.range ?? [0, 1];
    return { attributes: {}, keys, body, bodyLine: end + 1, problems: [{ message: `Bad YAML: ${(error as Error).message}.`, severity: "error", start: place(range[0]), end: place(range[1]) }] };
  }
}

/** Maps an offset in `text` to its line and column in the file, the text starting at `firstLine`. */
function positionsOf(text: string, firstLine: number): (offset: number) => FilePosition {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === "\n") starts.push(i + 1);
  return (offset) => {
    const at = Math.max(0, Math.min(offset, text.length));
    let line = starts.length - 1;
    while (line > 0 && starts[line]! > at) line--;
    return { line: firstLine + line, column: at - starts[line]! };
  };
}
