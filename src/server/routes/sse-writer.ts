// Writes a server-sent event stream. Each socket write costs a system call (about 0.1 ms per
// token here, the largest per-token cost of streaming), so events that follow the last write
// within a short window are batched into one write; an event after a quiet spell (the first
// token) goes out at once.
import type { ServerResponse } from "node:http";
import { encodeSseEvent, SSE_DONE } from "../../core/api/sse";

export class SseWriter {
  private pending = "";
  private timer: ReturnType<typeof setTimeout> | undefined;
  private lastWrite = Number.NEGATIVE_INFINITY;

  constructor(private readonly raw: ServerResponse, private readonly windowMs = 4) {}

  send(data: object | string): void {
    if (this.raw.destroyed) return;
    const event = encodeSseEvent(typeof data === "string" ? data : JSON.stringify(data));
    const sinceWrite = performance.now() - this.lastWrite;
    if (this.pending === "" && sinceWrite >= this.windowMs) {
      this.write(event);
      return;
    }
    this.pending += event;
    this.timer ??= setTimeout(() => this.flush(), Math.max(0, this.windowMs - sinceWrite));
  }

  /** Sends what is batched, then `[DONE]`, and ends the response. */
  end(): void {
    this.send(SSE_DONE);
    this.flush();
    this.raw.end();
  }

  /**
   * Writes what is batched now and stops the timer, so nothing is written later: before an error
   * event ends the stream, or when the client has gone (then nothing is written at all).
   */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.pending;
    this.pending = "";
    if (batch !== "" && !this.raw.destroyed) this.write(batch);
  }

  private write(text: string): void {
    this.raw.write(text);
    this.lastWrite = performance.now();
  }
}
