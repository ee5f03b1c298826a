// A line the cursor's line's sibling suggests, with the sibling's name changed to the cursor line's.
// Code lists things line by line in one shape (`url_up = form.get("url_up")`, `export {LonLat}
// from './Projection.LonLat.js'`, `GATEWAY_TIMEOUT = 504, "Gateway Timeout"`), and in such a list
// the rest of the line says the line's own name again, often in another case or spelling. A plain
// copy (line-candidates.ts) brings the sibling's name along; this brings the cursor line's.
import { escapeRegExp } from "../../../core/base/escape-reg-exp";

/** A name in JavaScript, TypeScript or Python. */
const NAME = /[A-Za-z_$][\w$]*/g;
/** Words that shape a line rather than name something in it. */
const KEYWORDS = new Set(
  ("if elif else for while do return import from export const let var def class async await in of not and or is new typeof " +
    "instanceof function try except catch finally with as yield lambda pass raise throw switch case break continue default " +
    "public private protected readonly static type interface enum extends implements true false null undefined None True False self this")
    .split(" "),
);
/** How far from the cursor's line a sibling is looked for, in lines each way. */
const NEAREST = 60;

/**
 * The rest of the nearest line that reads as the cursor's line does up to the cursor with another
 * name in one place (numbers may differ), that name changed to the cursor line's wherever the rest
 * says it, in any of its spellings. Empty when no such line says its name again after it.
 */
export function renamedLines(prefix: string, suffix: string): string[] {
  // Only the lines a sibling may be on are split out: the prefix can be the whole file.
  const above = lastLines(prefix, NEAREST + 1);
  const line = above.pop()!;
  const below = firstLines(suffix, NEAREST + 1).slice(1);
  const siblings: string[] = [];
  for (let d = 0; d < NEAREST; d++) siblings.push(...[above[above.length - 1 - d], below[d]].filter((s) => s !== undefined));
  for (const name of line.matchAll(NAME)) {
    const at = name.index!;
    const rest = line.slice(at + name[0].length);
    // The name must be whole, and followed by what shapes the line (`=`, `:`, `(`, `}`).
    if (rest === "" || /^[\w$]/.test(rest) || name[0].length < 2 || KEYWORDS.has(name[0]) || !/[^\s\w$]/.test(rest)) continue;
    const shape = new RegExp(`^${escapeRegExp(line.slice(0, at))}([A-Za-z_$][\\w$]*)${escapeRegExp(rest).replace(/\d+/g, "\\d+")}`);
    for (const sibling of siblings) {
      const match = shape.exec(sibling);
      if (!match || match[1] === name[0]) continue;
      const renamed = rename(sibling.slice(match[0].length), match[1]!, name[0]);
      if (renamed !== undefined && renamed.trim() !== "") return [renamed];
    }
  }
  return [];
}

/** The last `count` lines of `text` (all of them where it has fewer). */
function lastLines(text: string, count: number): string[] {
  let start = text.length;
  for (let n = 0; n < count && start > 0; n++) start = text.lastIndexOf("\n", start - 1);
  return text.slice(start + 1).split("\n");
}

/** The first `count` lines of `text` (all of them where it has fewer). */
function firstLines(text: string, count: number): string[] {
  let end = -1;
  for (let n = 0; n < count && end < text.length; n++) {
    const next = text.indexOf("\n", end + 1);
    end = next < 0 ? text.length : next;
  }
  return text.slice(0, end).split("\n");
}

/** `text` with `from` changed to `to` in each of its spellings; undefined when it has none. */
function rename(text: string, from: string, to: string): string | undefined {
  const spellings = new Map<string, string>([[from, to]]);
  const fromWords = words(from);
  const toWords = words(to);
  const fromSpellings = spell(fromWords);
  const toSpellings = spell(toWords);
  fromSpellings.forEach((s, i) => {
    if (s.length >= 2 && !spellings.has(s)) spellings.set(s, toSpellings[i]!);
  });
  const any = new RegExp(`(?<![\\w$])(${[...spellings.keys()].sort((a, b) => b.length - a.length).map(escapeRegExp).join("|")})(?![\\w$])`, "g");
  let changed = false;
  const out = text.replace(any, (s) => ((changed = true), spellings.get(s)!));
  return changed ? out : undefined;
}

/** A name's words: `GATEWAY_TIMEOUT`, `gatewayTimeout`, `HTTPTimeout` and `gateway-timeout` have two. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1_$2")
    .split(/[_$-]+/)
    .filter((w) => w !== "");
}

/** The spellings a name's words take in code and in text, in one order for every name. */
function spell(w: string[]): string[] {
  if (w.length === 0) return [];
  const lower = w.map((x) => x.toLowerCase());
  const title = lower.map((x) => x[0]!.toUpperCase() + x.slice(1));
  const sentence = lower.join(" ");
  return [
    lower.join("_"),
    lower.join("-"),
    lower.join("_").toUpperCase(),
    lower[0] + title.slice(1).join(""),
    title.join(""),
    title.join(" "),
    sentence,
    sentence[0]!.toUpperCase() + sentence.slice(1),
  ];
}
