/**
 * What the user's approval of an MCP tool is tied to: the tool's exact definition as its server
 * gives it (name, description, input schema) and the configuration of that server. A server can
 * change a tool after the user trusted it (a new description that asks the model for more, a new
 * parameter): the fingerprint then differs, the tool asks again, and the card shows what changed.
 */
import { canonicalJson } from "../base/canonical-json";
import { lcsTable } from "../base/lcs-table";

export interface ToolDefinition {
  readonly name: string;
  /** As the server gave it ("" for none). */
  readonly description: string;
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/**
 * The exact text an approval is given for: the server's configuration and the tool's definition.
 * Any change of either (a word of the description, a key of the schema, the command line) changes
 * it; the order of a schema's keys does not.
 */
export function toolFingerprint(serverConfig: string, tool: ToolDefinition): string {
  return canonicalJson({ server: serverConfig, name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
}

/** Most lines of a schema's diff shown on a card; the rest is counted. */
const maxDiffLines = 40;
/** Unchanged lines kept around each change. */
const contextLines = 2;

/**
 * What changed between the definition the user allowed and the server's current one, as lines a
 * person reads on the card: the description's sentences and the schema's lines, removed ("- ") and
 * added ("+ "), with a little unchanged context ("  "). Empty when nothing in the definition changed.
 */
export function definitionChanges(before: ToolDefinition, after: ToolDefinition): string {
  const parts: string[] = [];
  if (before.description !== after.description) parts.push("Description:", ...lineDiff(sentences(before.description), sentences(after.description), Infinity));
  const [oldSchema, newSchema] = [canonicalJson(before.inputSchema, 2), canonicalJson(after.inputSchema, 2)];
  if (oldSchema !== newSchema) parts.push("Input schema:", ...lineDiff(oldSchema.split("\n"), newSchema.split("\n"), contextLines));
  return parts.join("\n");
}

/** A description cut into lines and sentences, so that a sentence added to a paragraph shows alone. */
function sentences(text: string): string[] {
  if (text === "") return [];
  return text.split("\n").flatMap((line) => line.split(/(?<=[.!?])\s+(?=\S)/));
}

/** A unified diff of two line lists (no headers), with `context` unchanged lines around changes. */
function lineDiff(a: readonly string[], b: readonly string[], context: number): string[] {
  const lcs = lcsTable(a, b);
  const ops: { kind: " " | "-" | "+"; line: string }[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push({ kind: " ", line: a[i++]! });
      j++;
    } else if (i < a.length && (j === b.length || lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) ops.push({ kind: "-", line: a[i++]! });
    else ops.push({ kind: "+", line: b[j++]! });
  }
  const near = (n: number) => ops.slice(Math.max(0, n - context), n + context + 1).some((op) => op.kind !== " ");
  const lines: string[] = [];
  let skipped = false;
  ops.forEach((op, n) => {
    if (op.kind === " " && !near(n)) {
      if (!skipped) lines.push("  …");
      skipped = true;
      return;
    }
    skipped = false;
    lines.push(`${op.kind} ${op.line}`);
  });
  if (lines.length <= maxDiffLines) return lines;
  return [...lines.slice(0, maxDiffLines), `  … and ${lines.length - maxDiffLines} more lines`];
}
