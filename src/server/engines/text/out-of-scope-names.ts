// A line copied from elsewhere in the file can bring names with it that mean nothing where the
// cursor is: `return a + b;` copied from `add(a, b)` into `clamp(value, low, high)`. A name is out
// of scope here when the file declares it only inside other top-level items (a parameter or a
// local there) and never mentions it in the item the cursor is in or at the top level. Globals,
// imports, properties and names of the item itself pass; so does anything the check cannot place.

const WORD = /[A-Za-z_$][\w$]*/g;
const INDENTED = /^[ \t]/;
/** An unindented line that closes a bracket (`}`, `)`, `]`) still belongs to the item above it. */
const CLOSING = /^[\]})]/;

/** The text of the top-level item around the cursor: from its first line to where the next one starts. */
function enclosingItem(prefix: string, suffix: string): string {
  const above = prefix.split("\n");
  let start = above.length - 1;
  while (start > 0 && (above[start] === "" || INDENTED.test(above[start]!) || CLOSING.test(above[start]!))) start--;
  const below = suffix.split("\n");
  let end = 1;
  while (end < below.length && (below[end] === "" || INDENTED.test(below[end]!) || CLOSING.test(below[end]!))) end++;
  return [...above.slice(start), ...below.slice(0, end)].join("\n");
}

function words(text: string): Set<string> {
  return new Set(text.match(WORD) ?? []);
}

/** A top-level function's header: its parameters belong to its body, not to the file. */
const HEADER = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\b|def\s)|=>/;

/** Words of the file's top-level lines (imports, declarations, calls), less top-level functions' parameters. */
function topLevelNames(text: string): Set<string> {
  const lines = text.split("\n").filter((l) => l !== "" && !INDENTED.test(l));
  return words(lines.map((l) => (HEADER.test(l) ? l.replace(/\([^)]*\)/g, "()") : l)).join("\n"));
}

const PARAM = /^\s*(?:\.\.\.|\*{1,2})?([A-Za-z_$][\w$]*)/;

/** Adds the names of a comma-separated parameter list. */
function addParams(list: string | undefined, names: Set<string>): void {
  for (const param of (list ?? "").split(",")) {
    const name = PARAM.exec(param)?.[1];
    if (name) names.add(name);
  }
}

/** Adds the names a line binds: `const`/`let`/`var` and a Python assignment's target. */
function addBindings(line: string, names: Set<string>): void {
  for (const m of line.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]!);
  const assigned = /^\s+([A-Za-z_][\w]*)\s*=[^=]/.exec(line);
  if (assigned) names.add(assigned[1]!);
}

/** Names the text declares: parameters of function headers, `const`/`let`/`var` and Python assignments. */
function declaredNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const line of text.split("\n")) {
    const header = /\b(?:function\b[^(]*|def\s+[\w$]+\s*|^\s*(?:async\s+)?[\w$]+\s*)\(([^)]*)\)\s*(?:=>|[:{]|->)|\(([^()]*)\)\s*=>|([\w$]+)\s*=>/.exec(line);
    if (header) for (const part of [header[1], header[2], header[3]]) addParams(part, names);
    addBindings(line, names);
  }
  return names;
}

/**
 * Names the line declares for itself: `const b = …`, an arrow's `(v) =>`, a Python `total = …`.
 * Not a header's parameters: `if (a) {` reads like one.
 */
function ownNames(line: string): Set<string> {
  const names = new Set<string>();
  for (const m of line.matchAll(/\(([^()]*)\)\s*=>|([A-Za-z_$][\w$]*)\s*=>/g)) addParams(m[1] ?? m[2], names);
  addBindings(line, names);
  return names;
}

/**
 * A test for lines that would continue the prefix's last line: the names one uses that only other
 * top-level items of the file declare (none: the line is in scope). The file is read once, when a
 * line first needs it.
 */
export function outOfScopeNames(prefix: string, suffix: string): (line: string) => string[] {
  const cursorLine = prefix.slice(prefix.lastIndexOf("\n") + 1);
  const text = `${prefix}\n${suffix}`;
  let visible: { here: Set<string>; topLevel: Set<string> } | undefined;
  // Most lines use only visible names: the file's declarations are read only for one that does not.
  let declared: Set<string> | undefined;
  return (line) => {
    // With the cursor's line in front, a word the cursor is inside reads whole.
    const whole = cursorLine + line;
    const own = ownNames(whole);
    const used = [...whole.matchAll(WORD)].filter((m) => whole[m.index! - 1] !== "." && !own.has(m[0])).map((m) => m[0]);
    visible ??= { here: words(enclosingItem(prefix, suffix)), topLevel: topLevelNames(text) };
    const { here, topLevel } = visible;
    const elsewhere = used.filter((name) => !here.has(name) && !topLevel.has(name));
    if (elsewhere.length === 0) return [];
    declared ??= declaredNames(text);
    return [...new Set(elsewhere.filter((name) => declared!.has(name)))];
  };
}
