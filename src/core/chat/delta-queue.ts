/**
 * Streamed text on its way to the webview, with at most one message in flight: text that arrives
 * while the previous message is being delivered is merged and goes out as one. An idle view gets
 * each piece at once; a busy one (or a slow channel) gets fewer, larger messages instead of a
 * backlog.
 */
export interface TextDelta {
  readonly chatId: string;
  readonly turnId: string;
  readonly offset: number;
  readonly text: string;
}

export class DeltaQueue {
  private readonly pending: TextDelta[] = [];
  private inFlight = false;

  /** `send` resolves when the message was delivered (or dropped). */
  constructor(private readonly send: (delta: TextDelta) => PromiseLike<unknown>) {}

  push(delta: TextDelta): void {
    const last = this.pending.at(-1);
    if (last && last.chatId === delta.chatId && last.turnId === delta.turnId && last.offset + last.text.length === delta.offset) {
      this.pending[this.pending.length - 1] = { ...last, text: last.text + delta.text };
    } else {
      this.pending.push(delta);
    }
    if (!this.inFlight) this.next();
  }

  private next(): void {
    const delta = this.pending.shift();
    if (delta === undefined) return;
    this.inFlight = true;
    const done = () => {
      this.inFlight = false;
      this.next();
    };
    Promise.resolve(this.send(delta)).then(done, done);
  }
}
