// One streamed /v1/completions request timed from the client: when the first text arrived, when
// the last did, and how many tokens came. The same client for every server compared.
import http from "node:http";

export interface StreamTiming {
  /** ms from sending the request to the first text. */
  ttft: number;
  /** generated tokens per second after the first one. */
  rate: number;
  tokens: number;
  /** ms from sending the request to the end of the response. */
  total: number;
}

// By default a connection per request: servers close idle keep-alive sockets at different times
// (llama-server after 5 s), and a request on a socket closed under it fails.
const freshConnections = new http.Agent({ keepAlive: false });

/** The data of each whole server-sent event in `buffer`, and what is left of a partial one; comments and [DONE] are skipped. */
export function sseEvents(buffer: string): { events: string[]; rest: string } {
  const parts = buffer.split("\n\n");
  const rest = parts.pop()!;
  // SSE comments (": keep-alive" while a long prompt is evaluated) carry no data.
  const events = parts.map((event) => event.replace(/^data: /, "")).filter((data) => data !== "[DONE]" && data.trim() !== "" && !data.startsWith(":"));
  return { events, rest };
}

export function timedCompletion(baseUrl: string, key: string, body: Record<string, unknown>, agent: http.Agent = freshConnections): Promise<StreamTiming> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = 0;
    let last = 0;
    let texts = 0;
    let usageTokens = 0;
    let buffer = "";
    const payload = JSON.stringify({ ...body, stream: true, stream_options: { include_usage: true } });
    const request = http.request(`${baseUrl}/completions`, { method: "POST", agent, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } }, (response) => {
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        const { events, rest } = sseEvents(buffer + text);
        buffer = rest;
        for (const data of events) {
          const chunk = JSON.parse(data) as { error?: { message: string }; choices?: { text: string }[]; usage?: { completion_tokens: number } };
          if (chunk.error) return reject(new Error(chunk.error.message));
          if (chunk.usage) usageTokens = chunk.usage.completion_tokens;
          if (chunk.choices?.[0]?.text) {
            texts++;
            last = performance.now();
            first ||= last;
          }
        }
      });
      response.on("end", () => {
        const tokens = usageTokens || texts;
        resolve({ ttft: first - t0, rate: tokens > 1 ? ((tokens - 1) * 1000) / (last - first) : 0, tokens, total: performance.now() - t0 });
      });
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(payload);
  });
}

export function closeTimingAgent(): void {
  freshConnections.destroy();
}
