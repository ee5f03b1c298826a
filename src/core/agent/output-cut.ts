/**
 * A command's output fitted for the model: the head (where the command says what it does) and the
 * longer tail (where failures and summaries are) kept, the middle replaced by a note.
 */

const headShare = 0.4;

/** `text` when it fits in `maxChars`; else its head and tail, cut on line ends where possible, around a note. */
export function cutOutput(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : headAndTail(text, text, text.length, maxChars);
}

/** The note that stands for the cut middle. */
export function cutNote(cut: number, total: number): string {
  return `\n… [${cut.toLocaleString("en-US")} characters cut: the output was ${total.toLocaleString("en-US")} characters] …\n`;
}

/**
 * Output as it streams in, keeping only its first and last `capacity` characters (and at most
 * `capacity` more before trimming), so a command that prints gigabytes holds bounded memory.
 */
export class OutputBuffer {
  private head = "";
  private tail = "";
  private total = 0;

  constructor(private readonly capacity = 1_000_000) {}

  append(chunk: string): void {
    this.total += chunk.length;
    const room = this.capacity - this.head.length;
    if (room > 0) {
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    this.tail += chunk;
    // Trimmed only past twice the capacity, so appending stays linear.
    if (this.tail.length > 2 * this.capacity) this.tail = this.tail.slice(-this.capacity);
  }

  /** Characters appended so far. */
  get length(): number {
    return this.total;
  }

  /** What cutOutput gives for everything appended (`maxChars` is taken as the capacity at most). */
  text(maxChars = this.capacity): string {
    if (this.total <= maxChars) return this.head + this.tail;
    const whole = this.head.length + this.tail.length === this.total;
    const limit = whole ? maxChars : Math.min(maxChars, this.capacity);
    // Either part alone, when long enough, serves as the text's start or end: no copy of both.
    const prefix = this.head.length >= limit || !whole ? this.head : this.head + this.tail;
    const suffix = this.tail.length >= limit || !whole ? this.tail : this.head + this.tail;
    return headAndTail(prefix, suffix, this.total, limit);
  }
}

/** `prefix` starts the text and `suffix` ends it (each at least as long as its share, or all of it). */
function headAndTail(prefix: string, suffix: string, total: number, maxChars: number): string {
  const headBudget = Math.min(Math.floor(Math.max(0, maxChars) * headShare), prefix.length);
  const tailBudget = Math.min(Math.max(0, maxChars) - headBudget, suffix.length);
  let head = prefix.slice(0, headBudget);
  let tail = tailBudget > 0 ? suffix.slice(suffix.length - tailBudget) : "";
  // End the head after a line break and start the tail on one, unless that loses over half of either.
  const headEnd = head.lastIndexOf("\n");
  if (headEnd >= headBudget / 2) head = head.slice(0, headEnd + 1);
  const tailStart = tail.indexOf("\n");
  if (tailStart >= 0 && tailStart < tailBudget / 2) tail = tail.slice(tailStart + 1);
  head = dropBrokenPair(head, "end");
  tail = dropBrokenPair(tail, "start");
  return head + cutNote(total - head.length - tail.length, total) + tail;
}

/** Drops half of a surrogate pair left at a cut, so the text stays valid UTF-16. */
function dropBrokenPair(text: string, side: "start" | "end"): string {
  if (side === "end") return /[\uD800-\uDBFF]$/.test(text) ? text.slice(0, -1) : text;
  return /^[\uDC00-\uDFFF]/.test(text) ? text.slice(1) : text;
}
