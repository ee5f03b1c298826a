/**
 * Front matter as VS Code's own parser reads it, rewritten into YAML the `yaml` package reads the
 * same way. VS Code's parser has no anchors, aliases or tags, so `applyTo: **\/*.ts` is a string
 * there (while YAML reads an alias and fails), and it takes lists indented with tabs (which YAML
 * rejects). Plain values it reads as text are quoted (see startsAsText) and leading tabs become
 * spaces; each offset of the rewritten text maps back to the original, so problems still point
 * where they are in the file.
 */

export interface LenientYaml {
  readonly text: string;
  /** The offset in the original text of an offset in the rewritten one. */
  readonly originOf: (offset: number) => number;
}

export function lenientYaml(original: string): LenientYaml {
  let text = "";
  const origin: number[] = [];
  const emit = (chars: string, from: number) => {
    text += chars;
    for (let i = 0; i < chars.length; i++) origin.push(from);
  };
  const copy = (from: number, to: number) => {
    for (let i = from; i < to; i++) emit(original[i]!, i);
  };
  /** The original text from..to as a single-quoted scalar (a quote inside is doubled). */
  const quote = (from: number, to: number) => {
    emit("'", from);
    for (let i = from; i < to; i++) emit(original[i] === "'" ? "''" : original[i]!, i);
    emit("'", to - 1);
  };

  /** Inside a block scalar (`|`, `>`): its lines are text, left alone, while indented more than this. */
  let blockIndent: number | undefined;
  let start = 0;
  while (start <= original.length) {
    const newline = original.indexOf("\n", start);
    const end = newline < 0 ? original.length : newline;
    const line = original.slice(start, end);
    const indentLength = /^[ \t]*/.exec(line)![0].length;
    // Two spaces a tab: `\t- item` then lines up with `\t\tkey:` under it, as VS Code reads them.
    const width = line.slice(0, indentLength).replace(/\t/g, "  ").length;
    if (blockIndent !== undefined && (line.trim() === "" || width > blockIndent)) {
      copy(start, end);
    } else {
      blockIndent = undefined;
      for (let i = 0; i < indentLength; i++) emit(line[i] === "\t" ? "  " : line[i]!, start + i);
      const valueAt = valueStart(line, indentLength);
      if (valueAt === undefined) copy(start + indentLength, end);
      else {
        copy(start + indentLength, start + valueAt);
        const valueEnd = start + plainEnd(line, valueAt);
        const value = line.slice(valueAt, valueEnd - start);
        const blockHeader = /^[|>][-+0-9]*$/.test(value.trim());
        if (!blockHeader && startsAsText(value)) quote(start + valueAt, valueEnd);
        else if (line[valueAt] === "[" && value.trimEnd().endsWith("]")) quoteFlowItems(start + valueAt, valueEnd);
        else copy(start + valueAt, valueEnd);
        copy(valueEnd, end);
        if (blockHeader) blockIndent = width;
      }
    }
    if (newline < 0) break;
    emit("\n", newline);
    start = newline + 1;
  }
  origin.push(original.length);

  /** `[**\/*.ts, *.md]`: its items that start with `*` quoted (commas inside braces belong to the glob). */
  function quoteFlowItems(from: number, to: number) {
    const close = original.lastIndexOf("]", to - 1);
    emit("[", from);
    let item = from + 1;
    let depth = 0;
    let quoted: string | undefined;
    for (let i = from + 1; i <= close; i++) {
      const char = original[i];
      if (quoted !== undefined) {
        if (char === quoted) quoted = undefined;
      } else if (char === "'" || char === '"') quoted = char;
      else if (char === "{") depth++;
      else if (char === "}") depth = Math.max(0, depth - 1);
      if ((quoted === undefined && char === "," && depth === 0) || i === close) {
        const lead = item + /^\s*/.exec(original.slice(item, i))![0].length;
        const trail = lead + original.slice(lead, i).trimEnd().length;
        copy(item, lead);
        if (startsAsText(original.slice(lead, trail))) quote(lead, trail);
        else copy(lead, trail);
        copy(trail, i + 1);
        item = i + 1;
      }
    }
    copy(close + 1, to);
  }

  return { text, originOf: (offset) => origin[Math.max(0, Math.min(offset, origin.length - 1))]! };
}

/**
 * A plain value VS Code reads as text that YAML reads otherwise: an alias (`*`), an anchor (`&`) or a
 * tag (`!`) YAML would drop or fail on, characters it reserves (`@`, a backquote, `%`), a `|` or
 * `>` followed by text (no block scalar), `? ` (a complex key). `description: @workspace helps`
 * is that text in VS Code.
 */
function startsAsText(value: string): boolean {
  return /^(?:[*&!@`%]|[|>](?![-+0-9]*\s*$)|\?(?:\s|$))/.test(value);
}

/**
 * Where a line's value starts, after its `- ` markers and its `key: `; undefined for a line that
 * has neither (a comment, or the next line of a long value, left as written).
 */
function valueStart(line: string, from: number): number | undefined {
  let at = from;
  let marked = false;
  for (let dash = /^-(?:[ \t]+|$)/.exec(line.slice(at)); dash; dash = /^-(?:[ \t]+|$)/.exec(line.slice(at))) {
    at += dash[0].length;
    marked = true;
  }
  const key = /^[^\s'"#*&!\[\]{},-][^:#]*?[ \t]*:(?:[ \t]+|$)/.exec(line.slice(at));
  if (key) return at + key[0].length;
  return marked ? at : undefined;
}

/** Where a plain value that starts at `from` ends: before a ` #` comment and trailing spaces. */
function plainEnd(line: string, from: number): number {
  const comment = line.slice(from).search(/[ \t]#/);
  const end = comment < 0 ? line.length : from + comment;
  return from + line.slice(from, end).trimEnd().length;
}
