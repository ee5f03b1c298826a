import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { SseParser } from "../../src/core/api/sse";
import { SseWriter } from "../../src/server/routes/sse-writer";

/** Serves one SSE response written by `body`, counting the socket writes it made. */
async function serve(body: (sse: SseWriter) => Promise<void> | void): Promise<{ events: string[]; writes: number }> {
  let writes = 0;
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const write = res.write.bind(res) as (chunk: string) => boolean;
    res.write = ((chunk: string) => {
      writes++;
      return write(chunk);
    }) as typeof res.write;
    void body(new SseWriter(res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const response = await fetch(`http://127.0.0.1:${port}/`);
    const parser = new SseParser();
    const events = parser.feed(await response.text()).map((e) => e.data);
    return { events, writes };
  } finally {
    server.close();
  }
}

describe("SseWriter", () => {
  it("delivers every event in order and ends with [DONE]", async () => {
    const { events } = await serve(async (sse) => {
      for (let i = 0; i < 5; i++) {
        sse.send({ i });
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      sse.send("multi\nline");
      sse.end();
    });
    assert.deepEqual(events, ['{"i":0}', '{"i":1}', '{"i":2}', '{"i":3}', '{"i":4}', "multi\nline", "[DONE]"]);
  });

  it("writes the first event at once and batches a burst that follows it", async () => {
    const { events, writes } = await serve((sse) => {
      for (let i = 0; i < 50; i++) sse.send({ i });
      sse.end();
    });
    assert.equal(events.length, 51);
    assert.equal(writes, 2, "the first event alone, then the rest with [DONE]");
  });
});
