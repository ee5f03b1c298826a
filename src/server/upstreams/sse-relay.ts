// Passes an upstream's event stream on event by event (each as soon as it is whole), noting the
// usage it reports. When the usage chunk was asked for only to count tokens, it is left out, so
// the client sees the stream it asked for. Events go on as the bytes that came (every token
// passes here): only the one that carries usage is decoded and parsed.

export interface RelayedUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

const EVENT_END = Buffer.from("\n\n");
const CHOICE = Buffer.from('"choices":[{');
/** Only the usage chunk (at the end) says "usage" with a value: every other event passes as is. */
const USAGE = [Buffer.from('"usage":{'), Buffer.from('"usage": {')];

export class SseRelay {
  usage: RelayedUsage | undefined;
  /** Events that carried a choice: the tokens so far, for engines that send one a token. */
  choiceEvents = 0;
  /** The start of an event not yet whole, as it came (searched once: a big event comes in many pieces). */
  private pending: Buffer[] = [];

  constructor(private readonly dropUsageChunk: boolean) {}

  /** What to send on for this piece of the upstream's body (undefined while an event is incomplete). */
  push(chunk: Buffer): Buffer | undefined {
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
    if (!USAGE.some((usage) => whole.includes(usage))) return whole;
    const kept = whole
      .toString("utf8")
      .split(/(?<=\n\n)/)
      .filter((event) => this.keep(event))
      .join("");
    return kept === "" ? undefined : Buffer.from(kept, "utf8");
  }

  /** What was left without a closing blank line when the upstream ended. */
  end(): Buffer {
    return Buffer.concat(this.pending);
  }

  private keep(event: string): boolean {
    const data = /^data: ?(.*)$/m.exec(event)?.[1];
    if (data === undefined || !data.includes('"usage"')) return true;
    try {
      const parsed = JSON.parse(data) as { usage?: RelayedUsage | null; choices?: unknown[] };
      if (!parsed.usage) return true;
      this.usage = parsed.usage;
      return !(this.dropUsageChunk && Array.isArray(parsed.choices) && parsed.choices.length === 0);
    } catch {
      return true;
    }
  }
}
