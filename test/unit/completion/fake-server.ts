import { cancelledError } from "../../../src/core/base/cancellation";
import type { Clock } from "../../../src/core/base/clock";
import type { CompletionStream, CompletionStreamRequest } from "../../../src/core/completion/types";

export interface FakeReply {
  readonly chunks: readonly string[];
  /** Fake-clock time before each chunk. */
  readonly chunkDelayMs?: number;
  readonly error?: Error;
}

/**
 * The network seam, faked: records requests, streams canned text deltas (on the fake clock when
 * delayed), and counts how each stream ended, so tests can see requests stopped upstream.
 */
export class FakeServer {
  readonly requests: CompletionStreamRequest[] = [];
  chunksSent = 0;
  completed = 0;
  /** Streams that ended early: aborted, or their consumer stopped reading. */
  stoppedEarly = 0;

  constructor(
    private readonly reply: (req: CompletionStreamRequest) => FakeReply,
    private readonly clock?: Clock,
  ) {}

  readonly stream: CompletionStream = (req, signal) => this.generate(req, signal);

  private async *generate(req: CompletionStreamRequest, signal: AbortSignal): AsyncGenerator<string> {
    this.requests.push(req);
    const reply = this.reply(req);
    let done = false;
    try {
      for (const chunk of reply.chunks) {
        if (reply.chunkDelayMs && this.clock) await this.clock.sleep(reply.chunkDelayMs, signal);
        if (signal.aborted) throw cancelledError();
        this.chunksSent++;
        yield chunk;
      }
      if (reply.error) throw reply.error;
      done = true;
      this.completed++;
    } finally {
      if (!done && !reply.error) this.stoppedEarly++;
    }
  }
}
