/** One server-sent event (https://html.spec.whatwg.org/multipage/server-sent-events.html). */
export interface SseEvent {
  /** The `event:` field, or "message" when absent. */
  event: string;
  /** The `data:` lines joined with "\n". */
  data: string;
  id?: string;
}

/** The data of the event that ends an OpenAI stream. */
export const SSE_DONE = "[DONE]";

/**
 * Incremental SSE parser. Feed it bytes exactly as they arrive (split anywhere, even inside a
 * multi-byte UTF-8 character or between the CR and LF of a line ending); it returns the events
 * completed so far. Comments (`:` lines) and `retry:` are ignored; an `error:` line (llama.cpp's)
 * is the data of an event of type "error".
 */
export class SseParser {
  private readonly decoder = new TextDecoder("utf-8");
  private buffer = "";
  /** The previous chunk ended in CR: a leading LF in the next one belongs to that line ending. */
  private skipLeadingLf = false;
  private data: string[] = [];
  private eventType = "";
  private lastId: string | undefined;

  feed(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === "string" ? chunk : this.decoder.decode(chunk, { stream: true });
    if (this.skipLeadingLf && text.length > 0) {
      if (text.startsWith("\n")) text = text.slice(1);
      this.skipLeadingLf = false;
    }
    // The kept buffer holds no line break, so only the new text needs scanning (a long line fed
    // byte by byte stays linear).
    const scanFrom = this.buffer.length;
    this.buffer += text;
    return this.drainLines(scanFrom);
  }

  /**
   * Ends the stream. Unlike the spec, a last event missing its blank line is still delivered:
   * some servers end with a single newline after `data: [DONE]`.
   */
  end(): SseEvent[] {
    this.buffer += this.decoder.decode();
    const events = this.drainLines();
    if (this.buffer !== "") {
      this.processLine(this.buffer, events);
      this.buffer = "";
    }
    this.dispatch(events);
    return events;
  }

  private drainLines(scanFrom = 0): SseEvent[] {
    const events: SseEvent[] = [];
    let start = 0;
    for (let i = scanFrom; i < this.buffer.length; i++) {
      const ch = this.buffer.charCodeAt(i);
      if (ch !== 0x0a && ch !== 0x0d) continue;
      this.processLine(this.buffer.slice(start, i), events);
      if (ch === 0x0d) {
        if (i + 1 === this.buffer.length) this.skipLeadingLf = true;
        else if (this.buffer.charCodeAt(i + 1) === 0x0a) i++;
      }
      start = i + 1;
    }
    this.buffer = this.buffer.slice(start);
    return events;
  }

  private processLine(line: string, events: SseEvent[]): void {
    if (line === "") {
      this.dispatch(events);
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        this.data.push(value);
        break;
      case "event":
        this.eventType = value;
        break;
      case "error":
        // Not SSE: llama.cpp's server reports a failure mid-stream as an `error: {...}` line.
        this.eventType = "error";
        this.data.push(value);
        break;
      case "id":
        if (!value.includes("\0")) this.lastId = value;
        break;
    }
  }

  private dispatch(events: SseEvent[]): void {
    if (this.data.length > 0) {
      const event: SseEvent = { event: this.eventType || "message", data: this.data.join("\n") };
      if (this.lastId !== undefined) event.id = this.lastId;
      events.push(event);
    }
    this.data = [];
    this.eventType = "";
  }
}

/** Encodes one SSE event carrying `data` (multi-line data becomes several `data:` lines). */
export function encodeSseEvent(data: string): string {
  return data.split(/\r\n|\r|\n/).map((line) => `data: ${line}\n`).join("") + "\n";
}
