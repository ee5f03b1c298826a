/**
 * `@` mentions in the chat's prompt box: which kinds exist, what the user is typing after an `@`,
 * and how candidates are ordered while they type.
 */

export type MentionKind = "file" | "symbol" | "problems" | "open" | "selection" | "git" | "terminal";

export interface MentionKindInfo {
  readonly kind: MentionKind;
  readonly label: string;
  readonly description: string;
  /** The kind lists items to choose from (files, symbols); the others attach at once. */
  readonly hasItems: boolean;
}

export const mentionKinds: readonly MentionKindInfo[] = [
  { kind: "file", label: "@file", description: "a file of the workspace", hasItems: true },
  { kind: "symbol", label: "@symbol", description: "a function, class or other symbol", hasItems: true },
  { kind: "problems", label: "@problems", description: "errors and warnings of the current file, else the workspace", hasItems: false },
  { kind: "open", label: "@open", description: "what the open editors show", hasItems: false },
  { kind: "selection", label: "@selection", description: "the selection in the editor", hasItems: false },
  { kind: "git", label: "@git", description: "uncommitted changes (git diff)", hasItems: false },
  { kind: "terminal", label: "@terminal", description: "the terminal's last command and its output (secrets masked)", hasItems: false },
];

export function isMentionKind(value: unknown): value is MentionKind {
  return mentionKinds.some((k) => k.kind === value);
}

/** What is typed after an `@` at the caret: `@fi` -> no kind yet, `@file:car` -> kind file, query car. */
export interface ActiveMention {
  /** Offset of the `@`. */
  readonly start: number;
  readonly kind?: MentionKind;
  readonly query: string;
}

/**
 * The mention being typed at `caret`, if any: an `@` at the start or after white space, followed
 * by no white space up to the caret.
 */
export function activeMention(text: string, caret: number): ActiveMention | undefined {
  const before = text.slice(0, caret);
  const match = /(?:^|\s)@([^\s@]*)$/.exec(before);
  if (!match) return undefined;
  const typed = match[1]!;
  const start = caret - typed.length - 1;
  const colon = typed.indexOf(":");
  if (colon > 0) {
    const kind = typed.slice(0, colon);
    if (isMentionKind(kind)) return { start, kind, query: typed.slice(colon + 1) };
  }
  return { start, query: typed };
}

/**
 * How well `query` matches `candidate` as a fuzzy subsequence (higher is better); undefined when
 * it does not. A match inside the last path segment counts most, then matches at word starts, so
 * `cart` finds `src/cart.ts` before `src/scarter.ts`.
 */
export function fuzzyScore(query: string, given: string): number | undefined {
  if (query === "") return 0;
  // One form for both: a name written to disk by macOS (café as e + U+0301, NFD) and the same
  // name typed (é, NFC) are equal to the reader.
  const q = lowerInPlace(query.normalize("NFC"));
  const candidate = given.normalize("NFC");
  const nameStart = candidate.lastIndexOf("/") + 1;
  const inName = subsequenceScore(q, candidate.slice(nameStart));
  const score = inName === undefined ? subsequenceScore(q, candidate) : inName + 10;
  return score === undefined ? undefined : score - candidate.length * 0.01;
}

/**
 * Lower case with every index kept: İ's lower case is two code units (i + U+0307), which would
 * shift every later index of the lower-cased name against the name itself (a camelCase start read
 * from the wrong character) and keep `is` from matching the start of İstanbul. Such a character
 * becomes its first unit (İ -> i).
 */
function lowerInPlace(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  return Array.from(text, (ch) => {
    const low = ch.toLowerCase();
    return low.length === ch.length ? low : low[0]!;
  }).join("");
}

function subsequenceScore(q: string, candidate: string): number | undefined {
  const c = lowerInPlace(candidate);
  let score = c.startsWith(q) ? 10 : 0;
  let from = 0;
  let previous = -2;
  for (const ch of q) {
    const at = c.indexOf(ch, from);
    if (at < 0) return undefined;
    const wordStart = at === 0 || /[/._\-\s]/.test(c[at - 1]!) || (candidate[at] !== c[at] && candidate[at - 1] === c[at - 1]);
    score += 1 + (at === previous + 1 ? 2 : 0) + (wordStart ? 3 : 0);
    previous = at;
    from = at + 1;
  }
  return score;
}

/** The candidates matching `query`, best first; ties keep the given order (recent and open first). */
export function rankCandidates<T>(query: string, candidates: readonly T[], text: (item: T) => string, limit = 50): T[] {
  const scored: { item: T; score: number; order: number }[] = [];
  candidates.forEach((item, order) => {
    const score = fuzzyScore(query, text(item));
    if (score !== undefined) scored.push({ item, score, order });
  });
  if (query !== "") scored.sort((x, y) => y.score - x.score || x.order - y.order);
  return scored.slice(0, limit).map((s) => s.item);
}
