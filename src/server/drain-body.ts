// What is left of a request body that will not be used, read and thrown away. An HTTP client
// (Node's fetch among them) that is still sending when the server closes the connection sees
// EPIPE or a reset instead of the server's answer: reading the rest first lets it read a 413.
import type { IncomingMessage } from "node:http";

export interface DrainLimits {
  /** Most bytes read and discarded; past this the connection may be closed on the client. */
  readonly maxBytes: number;
  /** Longest wait for the rest of the body. */
  readonly maxMs: number;
}

/** Resolves true once the whole body has arrived, false when a limit or an error stopped it. */
export function drainBody(raw: IncomingMessage, limits: DrainLimits): Promise<boolean> {
  if (raw.complete || raw.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    let received = 0;
    const finish = (whole: boolean) => {
      clearTimeout(timer);
      raw.off("data", onData).off("end", onEnd).off("error", onFail).off("close", onClose);
      resolve(whole);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limits.maxBytes) finish(false);
    };
    const onEnd = () => finish(true);
    const onFail = () => finish(false);
    const onClose = () => finish(raw.complete);
    const timer = setTimeout(() => finish(false), limits.maxMs);
    raw.on("data", onData).on("end", onEnd).on("error", onFail).on("close", onClose);
    // A compressed body is piped into its decompressor, which nothing reads any more: left piped,
    // its backpressure would pause the request again and hold the answer to the timeout.
    raw.unpipe();
    raw.resume();
  });
}
