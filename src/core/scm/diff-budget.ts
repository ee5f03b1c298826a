/**
 * Fitting several files' diffs into one request: a budget of characters shared so that small
 * diffs go whole and the large ones are cut to the same length, each at a line's end, with a
 * note that says how much of that file was left out.
 */

/**
 * The characters each of `sizes` may keep so that they sum to at most `budget`: a water level
 * that every size under it keeps whole and every size over it is cut to.
 */
export function shareBudget(sizes: readonly number[], budget: number): number[] {
  const total = sizes.reduce((sum, size) => sum + size, 0);
  if (total <= budget) return [...sizes];
  const order = sizes.map((size, index) => ({ size, index })).sort((a, b) => a.size - b.size);
  const shares = new Array<number>(sizes.length).fill(0);
  let left = Math.max(0, budget);
  order.forEach(({ size, index }, rank) => {
    const level = Math.floor(left / (order.length - rank));
    shares[index] = Math.min(size, level);
    left -= shares[index]!;
  });
  return shares;
}

/**
 * The section cut to about `chars` characters at a line's end (its header, up to the first
 * hunk, always stays), with a note naming the lines left out; the section itself when it fits.
 */
export function cutSection(text: string, chars: number, path: string): string {
  if (text.length <= chars) return text;
  const header = headerLength(text);
  let end = text.lastIndexOf("\n", Math.max(chars, header) - 1) + 1;
  if (end < header) end = header;
  const kept = text.slice(0, end);
  const left = text.slice(end).split("\n").filter((line) => line !== "").length;
  return `${kept}${cutNote(left, path)}`;
}

function cutNote(left: number, path: string): string {
  return `[… ${left} more line${left === 1 ? "" : "s"} of the diff of ${path} left out to fit the request]\n`;
}

/** The most characters cutSection's note about `path` takes. */
export function cutNoteRoom(path: string): number {
  return cutNote(Number.MAX_SAFE_INTEGER, path).length;
}

/** The length of a file's diff header: everything before its first hunk (all of it when it has none). */
export function headerLength(section: string): number {
  const hunk = section.search(/^@@/m);
  return hunk < 0 ? section.length : hunk;
}

/** Characters per token assumed when sizing a diff for a model's context (code runs about 3). */
const charsPerToken = 3;
/** Room kept for the instructions, the recent subjects and the list of files sent by name. */
const promptTokens = 800;
const smallestBudget = 2_000;
/** A whole refactor's diff says no more than its first 60 KB: the model cannot use more. */
const largestBudget = 60_000;

/** Characters of diff that fit a model of `contextTokens` that answers in up to `answerTokens`. */
export function diffBudgetChars(contextTokens: number, answerTokens: number): number {
  const fits = (contextTokens - answerTokens - promptTokens) * charsPerToken;
  return Math.max(smallestBudget, Math.min(largestBudget, Math.floor(fits)));
}
