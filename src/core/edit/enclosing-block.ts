/**
 * What "edit" means without a selection: the innermost function (or method, constructor) around the
 * cursor from the editor's symbol tree, else the innermost other multi-line symbol, else the
 * paragraph around the cursor (the lines between blank lines).
 */

/** A document symbol as plain data; lines are 0-based and inclusive. */
export interface SymbolNode {
  readonly name: string;
  /** The symbol kind's name, e.g. "Function", "Method", "Class". */
  readonly kind: string;
  readonly startLine: number;
  readonly endLine: number;
  readonly children: readonly SymbolNode[];
}

export interface EnclosingBlock {
  readonly startLine: number;
  readonly endLine: number;
  /** Where the block came from, for the message that says which lines are edited. */
  readonly source: { readonly kind: "symbol"; readonly name: string; readonly symbolKind: string } | { readonly kind: "paragraph" };
}

const functionKinds = new Set(["Function", "Method", "Constructor"]);

/** The symbols around `line`, outermost first. */
function symbolPath(symbols: readonly SymbolNode[], line: number): SymbolNode[] {
  const path: SymbolNode[] = [];
  let level = symbols;
  for (;;) {
    const around = level.find((s) => s.startLine <= line && line <= s.endLine);
    if (around === undefined) return path;
    path.push(around);
    level = around.children;
  }
}

export function enclosingBlock(symbols: readonly SymbolNode[], lines: readonly string[], line: number): EnclosingBlock | undefined {
  const path = symbolPath(symbols, line).reverse();
  const symbol = path.find((s) => functionKinds.has(s.kind)) ?? path.find((s) => s.endLine > s.startLine);
  if (symbol) return { startLine: symbol.startLine, endLine: symbol.endLine, source: { kind: "symbol", name: symbol.name, symbolKind: symbol.kind } };
  const paragraph = paragraphAround(lines, line);
  return paragraph && { ...paragraph, source: { kind: "paragraph" } };
}

/** The non-blank lines around `line` up to blank lines; none when `line` itself is blank. */
export function paragraphAround(lines: readonly string[], line: number): { startLine: number; endLine: number } | undefined {
  const blank = (i: number) => lines[i]!.trim() === "";
  if (line < 0 || line >= lines.length || blank(line)) return undefined;
  let startLine = line;
  let endLine = line;
  while (startLine > 0 && !blank(startLine - 1)) startLine--;
  while (endLine < lines.length - 1 && !blank(endLine + 1)) endLine++;
  return { startLine, endLine };
}

/** How the user is told what is edited, e.g. `function total (lines 3-9)`. */
export function describeBlock(block: EnclosingBlock): string {
  const lines = block.startLine === block.endLine ? `line ${block.startLine + 1}` : `lines ${block.startLine + 1}-${block.endLine + 1}`;
  if (block.source.kind === "paragraph") return `the paragraph at ${lines}`;
  return `${block.source.symbolKind.toLowerCase()} ${block.source.name} (${lines})`;
}
