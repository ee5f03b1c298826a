import type { CodeRegions } from "./code-regions";
import type { NextEdit } from "./predict-next-edits";

/**
 * The edit that renames the local `oldName` at `at` (a whole word in code) to `newName`, or
 * undefined where that word is a property name beside the local, not the local: an object key
 * (`{ count: 1 }`), a member of a class or enum body (a use in a field's initialiser is the local).
 * A shorthand keeps its key (`{ count }` becomes `{ count: total }`), and an import or export the
 * name it has outside the file (`import { count as total }`, `export { total as count }`), so the
 * rename changes no behaviour.
 */
export function renameAt(text: string, at: number, oldName: string, newName: string, regions: CodeRegions): NextEdit | undefined {
  const plain = { offset: at, oldText: oldName, newText: newName };
  const block = regions.blocksAround(at)[0];
  if (regions.isClassBody(block) && isMemberName(text, at, regions)) return undefined;
  const end = at + oldName.length;
  const afterAs = /[\w$]+\s+as\s+$/.exec(text.slice(Math.max(0, at - 200), at));
  const beforeAs = /^\s+as\b/.test(text.slice(end, end + 20));
  // The element of a brace list this word is in: `name`, or `exported as name`.
  const separator = previousCode(text, afterAs ? at - afterAs[0].length : at, regions);
  if (separator === undefined || (text[separator] !== "{" && text[separator] !== ",")) return plain;
  const brace = text[separator] === "{" ? separator : unclosedOpener(text, separator, regions);
  // Only a brace pair: the `{` of a template literal's `${` opens code, not a list.
  if (brace === undefined || block?.start !== brace) return plain;
  const head = text.slice(Math.max(0, brace - 200), brace);
  if (/\benum\s+[\w$]+\s*$/.test(head)) return undefined;
  if (/\bimport\s+(?:type\s+)?(?:[\w$]+\s*,\s*)?$/.test(head)) {
    if (beforeAs) return undefined;
    return afterAs ? plain : { ...plain, newText: `${oldName} as ${newName}` };
  }
  if (/\bexport\s+(?:type\s+)?$/.test(head)) {
    if (afterAs) return undefined;
    return beforeAs ? plain : { ...plain, newText: `${newName} as ${oldName}` };
  }
  const next = nextCode(text, end, regions);
  if (next === undefined) return plain;
  if (text[next] === ":" && text[next + 1] !== ":") return undefined;
  if (text[next] === "," || text[next] === "}") return { ...plain, newText: `${oldName}: ${newName}` };
  return plain;
}

const memberModifier = /\b(?:static|public|private|protected|readonly|declare|abstract|override|accessor|async|get|set)\s*$/;
const continuesExpression = /[=+\-*/%&|^?:,([!<>~.]/;

/**
 * Whether the word at `at`, directly in a class body, names a member (`count = 1`, `static count`,
 * `@Input() count`) rather than being used in a field's initialiser (`total = count + 1`,
 * `[count] = 0`): a member starts after `{`, `;`, `}` or a decorator's `)`, or on a line of its own
 * after a complete member (no semicolon).
 */
export function isMemberName(text: string, at: number, regions: CodeRegions): boolean {
  let start = at;
  for (;;) {
    const from = Math.max(0, start - 40);
    const modifier = memberModifier.exec(text.slice(from, start));
    if (!modifier) break;
    start = from + modifier.index;
  }
  const before = previousCode(text, start, regions);
  if (before === undefined || "{;})".includes(text[before]!)) return true;
  return text.slice(before, start).includes("\n") && !continuesExpression.test(text[before]!);
}

/** The offset of the last character before `at` that is neither blank nor in a comment or string. */
function previousCode(text: string, at: number, regions: CodeRegions): number | undefined {
  for (let i = at - 1; i >= 0; i--) if (!/\s/.test(text[i]!) && !regions.inProse(i)) return i;
  return undefined;
}

function nextCode(text: string, from: number, regions: CodeRegions): number | undefined {
  for (let i = from; i < text.length; i++) if (!/\s/.test(text[i]!) && !regions.inProse(i)) return i;
  return undefined;
}

/** The bracket that `(`, `[` or `{` opens around offset `at` and is still open there. */
function unclosedOpener(text: string, at: number, regions: CodeRegions): number | undefined {
  let depth = 0;
  for (let i = at - 1; i >= 0; i--) {
    if (regions.inProse(i)) continue;
    const c = text[i]!;
    if (c === ")" || c === "]" || c === "}") depth++;
    else if ((c === "(" || c === "[" || c === "{") && depth-- === 0) return i;
  }
  return undefined;
}
