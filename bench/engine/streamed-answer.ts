// One streamed answer, timed from the client until its end, for either server's protocol
// (OpenAI-style `choices[0].text` events, or llama-server /infill's `content` events). Aborting
// closes the connection, which both servers take as a cancellation.
import http from "node:http";
import { sseEvents } from "./stream-timing";

export interface StreamedAnswer {
  /** ms from sending the request to the end of the answer. */
  readonly ms: number;
  readonly text: string;
}

const freshConnections = new http.Agent({ keepAlive: false });

/** POSTs `body` (with stream: true) to `url`; resolves undefined when `signal` aborted it first. */
export function streamedAnswer(url: string, key: string, body: Record<string, unknown>, signal: AbortSignal): Promise<StreamedAnswer | undefined> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return resolve(undefined);
    const t0 = performance.now();
    let text = "";
    let buffer = "";
    const request = http.request(url, { method: "POST", agent: freshConnections, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } }, (response) => {
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        const { events, rest } = sseEvents(buffer + chunk);
        buffer = rest;
        for (const data of events) {
          const parsed = JSON.parse(data) as { error?: { message: string }; choices?: { text: string }[]; content?: string };
          if (parsed.error) return reject(new Error(parsed.error.message));
          text += parsed.choices?.[0]?.text ?? parsed.content ?? "";
        }
      });
      response.on("end", () => resolve(signal.aborted ? undefined : { ms: performance.now() - t0, text }));
      response.on("error", (error) => (signal.aborted ? resolve(undefined) : reject(error)));
    });
    const abort = () => {
      request.destroy();
      resolve(undefined);
    };
    signal.addEventListener("abort", abort, { once: true });
    request.on("close", () => signal.removeEventListener("abort", abort));
    request.on("error", (error) => (signal.aborted ? resolve(undefined) : reject(error)));
    request.end(JSON.stringify({ ...body, stream: true }));
  });
}

export function closeStreamedAnswers(): void {
  freshConnections.destroy();
}
