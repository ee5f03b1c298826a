// The closing tag a markup line asks for (JSX, TSX, HTML, Vue and Angular templates). Where the
// cursor's line is `</` or `</Na`, the only right answer closes the innermost element still open
// in the prefix, and that is read from the text, not guessed: copies of other lines offer the tags
// closed elsewhere in the file, and a small model chooses among them by likelihood, so it wrote
// `</FormLabel>` where `<FormErrorMessage>` was open. Where the line is a bare `<` (at its start, or
// after `>` or `}`), the element may also be opened, so its closing tag is one line among the others.

/** Elements HTML never closes: `<input>` in a template opens nothing. */
const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
/** An opening tag longer than this is no tag (a comparison, say), and is not read further. */
const LONGEST_TAG = 2000;

export interface ClosingTag {
  /** What completes the line: the rest of the name and `>`. */
  text: string;
  /** `true` where the line already has `</`: the tag is the answer, not one line among others. */
  certain: boolean;
}

/** The closing tag the line at the end of `prefix` asks for, if it asks for one and the prefix has an element open. */
export function closingTag(prefix: string): ClosingTag | undefined {
  const line = prefix.slice(prefix.lastIndexOf("\n") + 1);
  const asked = /<(\/?)([\w.:-]*)$/.exec(line);
  if (!asked) return undefined;
  const [typed, slash, partial] = asked;
  const before = line.slice(0, asked.index);
  if (!slash && (partial !== "" || !/(^\s*|[>}])$/.test(before))) return undefined;
  const open = openElements(prefix.slice(0, prefix.length - typed.length));
  const innermost = open.at(-1);
  if (innermost === undefined || !innermost.startsWith(partial)) return undefined;
  const text = `${innermost.slice(partial.length)}>`;
  return slash ? { text, certain: true } : { text: `/${text}`, certain: false };
}

/**
 * The names of the elements opened in `text` and not closed, outermost first (a fragment `<>` is
 * ""). A `<` right after a name or `.` opens a type's arguments (`useState<string>`), not an
 * element; a closing tag closes the innermost element of its name and whatever it left open.
 */
export function openElements(text: string): string[] {
  const open: string[] = [];
  for (let at = text.indexOf("<"); at >= 0; at = text.indexOf("<", at + 1)) {
    const tag = /^<(\/?)([A-Za-z][\w.:-]*|(?=>))/.exec(text.slice(at, at + 256));
    if (!tag) continue;
    const [, slash, name] = tag;
    // Text ends right before a closing tag (`Password</FormLabel>`), a type's name before its arguments.
    if (!slash && at > 0 && /[\w.$]/.test(text[at - 1]!)) continue;
    const end = tagEnd(text, at + tag[0].length);
    if (end === undefined) continue;
    if (slash) {
      const i = open.lastIndexOf(name!);
      if (i >= 0) open.length = i;
    } else if (text[end - 1] !== "/" && !VOID.has(name!.toLowerCase())) {
      open.push(name!);
    }
    at = end;
  }
  return open;
}

/** Where the tag whose attributes start at `from` ends (its `>`), skipping quoted values and `{…}` expressions. */
function tagEnd(text: string, from: number): number | undefined {
  let depth = 0;
  let quote = "";
  const last = Math.min(text.length, from + LONGEST_TAG);
  for (let i = from; i < last; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'" || (c === "`" && depth > 0)) {
      quote = c;
    } else if (c === "{") {
      depth++;
    } else if (c === "}") {
      depth--;
    } else if (depth === 0 && c === "<") {
      return undefined;
    } else if (depth === 0 && c === ">") {
      return i;
    }
  }
  return undefined;
}
