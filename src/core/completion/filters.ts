/**
 * Streaming filters over the model's text deltas. Each returns as soon as it has what it needs;
 * returning ends the consumer's for-await, which calls return() on the source, so the request is
 * stopped upstream instead of generating text nobody will see.
 */
import type { Clock } from "../base/clock";

/** Ends the stream at the first stop string; holds back text that may be the start of one. */
export async function* stopAtStrings(source: AsyncIterable<string>, stops: readonly string[]): AsyncGenerator<string> {
  const wanted = stops.filter((s) => s !== "");
  if (wanted.length === 0) return yield* source;
  const holdBack = Math.max(...wanted.map((s) => s.length)) - 1;
  let pending = "";
  for await (const chunk of source) {
    pending += chunk;
    const at = firstIndexOfAny(pending, wanted);
    if (at !== -1) {
      if (at > 0) yield pending.slice(0, at);
      return;
    }
    const safe = safeLength(pending, wanted, holdBack);
    if (safe > 0) {
      yield pending.slice(0, safe);
      pending = pending.slice(safe);
    }
  }
  if (pending !== "") yield pending;
}

/** Text that may still turn out to be a fence's opening line: blanks, then up to ```lang. */
const fenceStart = /^\s*(?:`{1,3}[\w#+.-]*)?$/;
const fenceLine = /^\s*```[\w#+.-]*[ \t]*\n/;

/**
 * A chat model asked for a completion often wraps its code in a Markdown fence (```python … ```),
 * which is no text of the file: the opening line is left out and the stream ends at the closing
 * fence, as Continue's filterCodeBlockLines does. Other text passes through as it came.
 */
export async function* withoutFence(source: AsyncIterable<string>): AsyncGenerator<string> {
  const chunks = source[Symbol.asyncIterator]();
  let head = "";
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) {
        // Only three backticks make a fence: a lone ` (a template literal's end) is text.
        if (head !== "" && !/^\s*```/.test(head)) yield head;
        return;
      }
      head += next.value;
      const fence = fenceLine.exec(head);
      if (fence) {
        const body = head.slice(fence[0].length);
        // An empty block ends at once; otherwise at a line that closes the fence.
        if (/^\s*```/.test(body)) return;
        return yield* stopAtStrings(rest(chunks, body), ["\n```"]);
      }
      if (!fenceStart.test(head)) {
        yield head;
        return yield* rest(chunks, "");
      }
    }
  } finally {
    await chunks.return?.();
  }
}

/** The rest of a stream already begun: `first`, then what it still brings. */
async function* rest(chunks: AsyncIterator<string>, first: string): AsyncGenerator<string> {
  if (first !== "") yield first;
  for (;;) {
    const next = await chunks.next();
    if (next.done) return;
    yield next.value;
  }
}

/** Passes the stream through, reporting the text so far (before line buffering) as it arrives. */
export async function* observe(source: AsyncIterable<string>, onText: (textSoFar: string) => void): AsyncGenerator<string> {
  let text = "";
  for await (const chunk of source) {
    onText((text += chunk));
    yield chunk;
  }
}

/** Single-line mode: the text up to the first newline, then stop. */
export async function* firstLineOnly(source: AsyncIterable<string>): AsyncGenerator<string> {
  for await (const chunk of source) {
    const nl = chunk.indexOf("\n");
    if (nl !== -1) {
      if (nl > 0) yield chunk.slice(0, nl);
      return;
    }
    yield chunk;
  }
}

/** Repeats of a unit with digits and no letters (`1, `) that make a loop. */
const NUMBER_LOOP = 12;

/**
 * A line caught in a loop: the same short unit (with a letter in it) at least `repeats` times in
 * a row, spanning 12 characters or more, as small models fall into (`import_get_get_get_get`), or
 * a unit of digits a dozen times (`new Date(1, 1, 1, 1, …`).
 * Returns where to cut: at the end of the last word that ends within the loop's first unit (the
 * loop may be read from any rotation of its unit), else after that unit; undefined when the line
 * does not loop.
 */
export function loopCut(line: string, repeats = 4): number | undefined {
  for (const match of line.matchAll(new RegExp(`(?=([^\\n]{1,16}?)\\1{${repeats - 1},})`, "g"))) {
    const unit = match[1]!;
    let count = 1;
    while (line.startsWith(unit, match.index + count * unit.length)) count++;
    const words = /[A-Za-z]/.test(unit) && count * unit.length >= 12;
    // Numbers repeat on purpose (`[0, 0, 0, 0, 0, 0, 0, 0]`), but not a dozen times on one line.
    const numbers = /\d/.test(unit) && count >= NUMBER_LOOP;
    if (!words && !numbers) continue;
    for (let at = match.index + unit.length; at > match.index; at--) {
      if (/[A-Za-z0-9]/.test(line[at - 1]!) && !/[A-Za-z0-9]/.test(line[at] ?? "")) return at;
    }
    return match.index + unit.length;
  }
  return undefined;
}

/** Longest text of the current line held back: enough for a loop of 16-character units to show. */
const loopHoldBack = 64;

/**
 * Ends the stream where a line starts looping, keeping the line up to the loop's first unit. The
 * last characters of the current line are held back until it ends, so the cut can still reach
 * them; nothing is shown before its line ends anyway.
 */
export async function* stopAtLoops(source: AsyncIterable<string>): AsyncGenerator<string> {
  let line = "";
  let sent = 0;
  for await (const chunk of source) {
    for (const piece of chunk.split(/(?<=\n)/)) {
      line += piece;
      const cut = loopCut(line);
      if (cut !== undefined) {
        if (cut > sent) yield line.slice(sent, cut);
        return;
      }
      if (line.endsWith("\n")) {
        yield line.slice(sent);
        line = "";
        sent = 0;
      } else if (line.length - sent > loopHoldBack) {
        yield line.slice(sent, line.length - loopHoldBack);
        sent = line.length - loopHoldBack;
      }
    }
  }
  if (line.length > sent) yield line.slice(sent);
}

/** What to do with one complete line of a multi-line completion. */
export type LineVerdict = "keep" | "drop-and-stop" | "keep-and-stop";

/** Decides line by line; lines are passed without their newline, with the text kept so far. */
export type LineJudge = (line: string, index: number, kept: string) => LineVerdict;

/** Multi-line mode: buffers whole lines and stops where `judge` says. */
export async function* stopAtLines(source: AsyncIterable<string>, judge: LineJudge): AsyncGenerator<string> {
  let pending = "";
  let kept = "";
  let index = 0;
  // A kept line goes out with its newline, so that consumers see at once that it is complete.
  const emit = function* (line: string, terminated: boolean): Generator<string, boolean> {
    const verdict = judge(line, index, kept);
    if (verdict === "drop-and-stop") return false;
    const text = terminated ? `${line}\n` : line;
    kept += text;
    index++;
    yield text;
    return verdict === "keep";
  };
  for await (const chunk of source) {
    pending += chunk;
    let nl: number;
    while ((nl = pending.indexOf("\n")) !== -1) {
      const line = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (!(yield* emit(line, true))) return;
    }
  }
  if (pending !== "") yield* emit(pending, false);
}

/** What a request shows first: its whole text, or the first line of a block still streaming. */
export interface FirstShown {
  readonly text: string;
  readonly partial: boolean;
}

/**
 * Passes the stream through and calls `show` once, with what to show first: the first line of a
 * block once it has been complete for `afterMs` with more still to come (the time to the first
 * line is what the user waits for), else the whole text when the stream ends (when the rest
 * follows at once, a line and then the block would only flicker). As Continue's
 * showWhateverWeHaveAtXMs, but the stream goes on to its end, into the cache.
 */
export async function* showFirstLineEarly(source: AsyncIterable<string>, afterMs: number, clock: Clock, show: (first: FirstShown) => void): AsyncGenerator<string> {
  let shown = false;
  const showOnce = (first: FirstShown) => {
    if (!shown) show(first);
    shown = true;
  };
  const ended = new AbortController(); // the wait for the rest ends with the stream
  let text = "";
  let waiting = false;
  try {
    for await (const delta of source) {
      text += delta;
      yield delta;
      const lineEnd = waiting ? -1 : firstLineEnd(text);
      if (lineEnd === -1) continue;
      waiting = true;
      const line = text.slice(0, lineEnd);
      clock.sleep(afterMs, ended.signal).then(() => showOnce({ text: line, partial: true }), () => undefined);
    }
    showOnce({ text, partial: false });
  } finally {
    ended.abort();
  }
}

/** Where the first line with code ends, once a newline follows it (-1 before that). */
function firstLineEnd(text: string): number {
  const match = /\S[^\n]*\n/.exec(text);
  return match ? match.index + match[0].length - 1 : -1;
}

function firstIndexOfAny(text: string, needles: readonly string[]): number {
  let best = -1;
  for (const n of needles) {
    const at = text.indexOf(n);
    if (at !== -1 && (best === -1 || at < best)) best = at;
  }
  return best;
}

/** How much of `pending` cannot be the start of a stop string. */
function safeLength(pending: string, stops: readonly string[], holdBack: number): number {
  for (let start = Math.max(0, pending.length - holdBack); start < pending.length; start++) {
    const rest = pending.slice(start);
    if (stops.some((s) => s.startsWith(rest))) return start;
  }
  return pending.length;
}
