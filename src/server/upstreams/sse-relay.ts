// Passes an upstream's event stream on event by event (each as soon as it is whole), noting the
// usage it reports. When the usage chunk was asked for only to count tokens, it is left out, so
// the client sees the stream it asked for. Events go on as the bytes that came (every token
// passes here): only the one that carries usage is decoded and parsed. The stream's tail (the
// usage chunk and `[DONE]`) is held back until the upstream has ended, so the usage is recorded
// before the client has the whole answer. Lines may end in CRLF or CR (sse-starlette, so
// llama-cpp-python's server, sends CRLF): they go on as LF, so every event's end is a "\n\n".
import { relayedUsage, type RelayedUsage } from "./relayed-usage";

const EVENT_END = Buffer.from("\n\n");
const CHOICE = Buffer.from('"choices":[{');
/** Only the usage chunk (at the end) says "usage" with a value: every other event passes as is. */
const USAGE = [Buffer.from('"usage":{'), Buffer.from('"usage": {')];
const DONE = Buffer.from("data: [DONE]");
const CR = 0x0d;
const LF = 0x0a;

export class SseRelay {
  usage: RelayedUsage | undefined;
  /** Events that carried a choice: the tokens so far, for engines that send one a token. */
  choiceEvents = 0;
  /** The start of an event not yet whole, as it came (searched once: a big event comes in many pieces). */
  private pending: Buffer[] = [];
  /** The tail, from the final usage chunk or `[DONE]` on, sent by `end()`. */
  private held: Buffer[] = [];
  private holding = false;
  /** The last piece ended in CR: an LF opening the next one is the same line end. */
  private afterCr = false;

  constructor(private readonly dropUsageChunk: boolean) {}

  /** What to send on for this piece of the upstream's body (undefined while an event is incomplete). */
  push(piece: Buffer): Buffer | undefined {
    const chunk = this.lineFeeds(piece);
    if (chunk.length === 0) return undefined;
    let end = chunk.lastIndexOf(EVENT_END);
    // The blank line may straddle two pieces.
    if (end < 0 && chunk[0] === 0x0a && this.pending.at(-1)?.at(-1) === 0x0a) end = -1;
    else if (end < 0) {
      this.pending.push(chunk);
      return undefined;
    }
    const head = end + 2 === chunk.length ? chunk : chunk.subarray(0, end + 2);
    const whole = this.pending.length === 0 ? head : Buffer.concat([...this.pending, head]);
    this.pending = end + 2 === chunk.length ? [] : [chunk.subarray(end + 2)];
    for (let at = whole.indexOf(CHOICE); at >= 0; at = whole.indexOf(CHOICE, at + 1)) this.choiceEvents++;
    const special = USAGE.some((usage) => whole.includes(usage)) || whole.includes(DONE);
    if (!special && !this.holding) return whole;
    if (!special) {
      this.held.push(whole);
      return undefined;
    }
    let out = "";
    for (const event of whole.toString("utf8").split(/(?<=\n\n)/)) {
      const role = this.roleOf(event);
      // A dropped usage chunk starts the tail too: what follows it is the stream's end.
      if (role !== "pass") this.holding = true;
      if (role === "drop") continue;
      if (this.holding) this.held.push(Buffer.from(event, "utf8"));
      else out += event;
    }
    return out === "" ? undefined : Buffer.from(out, "utf8");
  }

  /** `piece` with each CRLF and CR as LF (the piece itself when it has no CR, as nearly all). */
  private lineFeeds(piece: Buffer): Buffer {
    if (this.afterCr && piece[0] === LF) piece = piece.subarray(1);
    this.afterCr = piece.at(-1) === CR;
    if (!piece.includes(CR)) return piece;
    const out = Buffer.allocUnsafe(piece.length);
    let n = 0;
    for (let i = 0; i < piece.length; i++) {
      if (piece[i] !== CR) out[n++] = piece[i]!;
      else {
        out[n++] = LF;
        if (piece[i + 1] === LF) i++;
      }
    }
    return out.subarray(0, n);
  }

  /** The held tail and what was left without a closing blank line when the upstream ended. */
  end(): Buffer {
    return Buffer.concat([...this.held, ...this.pending]);
  }

  /**
   * How an event goes on: as it came, dropped (the usage chunk the client did not ask for), or
   * held as the start of the tail (the final usage chunk, `[DONE]`).
   */
  private roleOf(event: string): "pass" | "drop" | "tail" {
    const data = /^data: ?(.*)$/m.exec(event)?.[1];
    if (data === undefined) return "pass";
    if (data.trim() === "[DONE]") return "tail";
    if (!data.includes('"usage"')) return "pass";
    try {
      const parsed = JSON.parse(data) as { usage?: unknown; choices?: unknown[] };
      if (!parsed.usage) return "pass";
      this.usage = relayedUsage(parsed.usage) ?? this.usage;
      // Engines that report usage on every chunk (vLLM's continuous usage) pass them as they come.
      const final = Array.isArray(parsed.choices) && parsed.choices.length === 0;
      if (!final) return "pass";
      return this.dropUsageChunk ? "drop" : "tail";
    } catch {
      return "pass";
    }
  }
}
