// Passes an upstream's event stream on event by event (each as soon as it is whole), noting the
// usage it reports. When the usage chunk was asked for only to count tokens, it is left out, so
// the client sees the stream it asked for.
import { StringDecoder } from "node:string_decoder";

export interface RelayedUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
}

export class SseRelay {
  usage: RelayedUsage | undefined;
  /** Events that carried a choice: the tokens so far, for engines that send one a token. */
  choiceEvents = 0;
  private pending = "";
  private readonly decoder = new StringDecoder("utf8");

  constructor(private readonly dropUsageChunk: boolean) {}

  /** The text to send on for this piece of the upstream's body ("" while an event is incomplete). */
  push(chunk: Buffer): string {
    this.pending += this.decoder.write(chunk);
    const end = this.pending.lastIndexOf("\n\n");
    if (end < 0) return "";
    const whole = this.pending.slice(0, end + 2);
    this.pending = this.pending.slice(end + 2);
    for (let at = whole.indexOf('"choices":[{'); at >= 0; at = whole.indexOf('"choices":[{', at + 1)) this.choiceEvents++;
    // Only the usage chunk (at the end) says "usage" with a value: every other event passes as is.
    if (!whole.includes('"usage":{') && !whole.includes('"usage": {')) return whole;
    return whole
      .split(/(?<=\n\n)/)
      .filter((event) => this.keep(event))
      .join("");
  }

  /** What was left without a closing blank line when the upstream ended. */
  end(): string {
    return this.pending + this.decoder.end();
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
