import assert from "node:assert/strict";
import OpenAI from "openai";
import type { ImageEngineMetrics } from "../../src/server/engines/image/image-engine";
import { waitFor } from "../harness/wait-for";
import { describeImage, generate, imageBytes } from "./images-helpers";
import { metricsOf, startServer, type TestServer } from "./server-fixture";

/** Never resolves before the request fails; the abort is what ends it. */
const expectAbort = (promise: Promise<unknown>) => promise.then(() => assert.fail("expected the request to be aborted"), (e: unknown) => e);

describe("image generation queue and client disconnects", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    // One generation may wait behind the running one: the 429s below show who is queued.
    server = await startServer({ maxQueue: 1 });
  });
  after(() => server.close());

  /** Waits until GET /metrics.json shows the image queue in this state. */
  const queueIs = (want: ImageEngineMetrics) =>
    waitFor(
      `the image queue at ${JSON.stringify(want)}`,
      async () => (await metricsOf(server)).images,
      (now) => now.running === want.running && now.waiting === want.waiting,
      60_000,
    );

  it("drops a waiting generation and stops a running one when their clients disconnect", async () => {
    await queueIs({ running: 0, waiting: 0 });
    const long = new AbortController();
    const running = expectAbort(generate(server.client, { width: 1024, height: 1024, num_inference_steps: 100, n: 4 }, { signal: long.signal }));
    await queueIs({ running: 1, waiting: 0 });
    const short = new AbortController();
    const waiting = expectAbort(generate(server.client, {}, { signal: short.signal }));
    await queueIs({ running: 1, waiting: 1 });

    const full = await generate(server.client).catch((e: unknown) => e);
    assert.ok(full instanceof OpenAI.RateLimitError, `expected 429 with one running and one waiting, got ${String(full)}`);
    assert.equal(full.headers?.get("retry-after"), "2");

    short.abort();
    await waiting;
    // The disconnected one left the queue while the long one still runs...
    await queueIs({ running: 1, waiting: 0 });
    // ...so this one gets its place (it would be refused otherwise)...
    const next = generate(server.client, { seed: 5 });
    await queueIs({ running: 1, waiting: 1 });
    // ...and starts once the running generation stops for its own disconnected client.
    long.abort();
    await running;
    const { body } = await next;
    assert.deepEqual(await describeImage(imageBytes(body)), { format: "png", width: 64, height: 64 });
    await queueIs({ running: 0, waiting: 0 });
  });
});
