import assert from "node:assert/strict";
import http from "node:http";
import OpenAI from "openai";
import { drain } from "../../src/server/drain";
import { RUN_MAX_TOKENS } from "../../src/server/engines/text/batch-decoder";
import { BUSY_RETRY_AFTER_SECONDS } from "../../src/server/errors";
import type { ServerMetrics } from "../../src/server/routes/metrics";
import type { RecordedUsage } from "../../src/server/usage/usage-recorder";
import { metricsOf, neverEnd, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

/** Starts a long streaming chat request with node:http, resolving once the first chunk arrives. */
async function openStream(server: TestServer, maxTokens: number): Promise<http.ClientRequest> {
  const logitBias = await neverEnd(server);
  return new Promise((resolve, reject) => {
    const request = http.request(`${server.baseURL}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" },
    });
    request.on("response", (response) => response.once("data", () => resolve(request)));
    request.on("error", (error) => (request.destroyed ? undefined : reject(error)));
    request.end(JSON.stringify({ model: TEXT_MODEL, messages: [{ role: "user", content: "Tell me everything." }], max_tokens: maxTokens, logit_bias: logitBias, stream: true }));
  });
}

/** Polls state, not time: resolves as soon as the engine reports every sequence free. */
async function untilIdleOf(server: TestServer): Promise<ServerMetrics> {
  for (;;) {
    const m = await metricsOf(server);
    if (m.sequences.busy === 0) return m;
    await new Promise((r) => setImmediate(r));
  }
}

describe("parallel sequences, queueing and client disconnects", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({ parallel: 1, contextSize: 8192, maxQueue: 2 });
  });
  after(() => server.close());

  const metrics = () => metricsOf(server);
  const untilIdle = () => untilIdleOf(server);

  it("queues requests beyond --parallel and serves each as if it were alone", async () => {
    const ask = (i: number) => server.client.completions.create({ model: TEXT_MODEL, prompt: `request ${i}`, max_tokens: 20, temperature: 0 });
    const concurrent = await Promise.all([0, 1, 2].map(ask));
    const oneByOne = [];
    for (const i of [0, 1, 2]) oneByOne.push(await ask(i));
    // The same text and counts; how much of the prompt the sequence had kept from the request
    // before (cached_tokens) depends on the order they ran in, and is no part of the answer.
    const served = (r: (typeof concurrent)[number]) => [r.choices[0]!.text, r.usage!.prompt_tokens, r.usage!.completion_tokens, r.usage!.total_tokens];
    assert.deepEqual(concurrent.map(served), oneByOne.map(served));
    assert.deepEqual((await metrics()).sequences, { total: 1, busy: 0, waiting: 0 });
  });

  it("answers 429 when the wait queue is full, and serves the queued request once a sequence frees", async () => {
    const holder = await openStream(server, 8000);
    const queued = [1, 2].map((i) => server.client.completions.create({ model: TEXT_MODEL, prompt: `queued ${i}`, max_tokens: 3 }));
    while ((await metrics()).sequences.waiting < 2) await new Promise((r) => setImmediate(r));
    const rejected = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: "one too many", max_tokens: 3 } });
    assert.equal(rejected.status, 429);
    const body = (await rejected.json()) as { error: { type: string } };
    assert.equal(body.error.type, "rate_limit_error");
    holder.destroy();
    for (const response of await Promise.all(queued)) {
      assert.ok(response.usage!.completion_tokens <= 3);
      assert.ok(["stop", "length"].includes(response.choices[0]!.finish_reason));
    }
  });

  it("a 429 for a full queue carries Retry-After, and the openai SDK waits that long before its retry, which is served", async () => {
    const holder = await openStream(server, 8000);
    const queued = [1, 2].map((i) => server.client.completions.create({ model: TEXT_MODEL, prompt: `queued ${i}`, max_tokens: 3 }));
    while ((await metrics()).sequences.waiting < 2) await new Promise((r) => setImmediate(r));
    const answers: { status: number; retryAfter: string | null; at: number }[] = [];
    const watched: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      answers.push({ status: response.status, retryAfter: response.headers.get("retry-after"), at: Date.now() });
      // The queue frees once the client was refused: its retry then finds a place.
      if (response.status === 429) holder.destroy();
      return response;
    };
    const retrying = new OpenAI({ baseURL: server.baseURL, apiKey: server.key, maxRetries: 1, fetch: watched });
    const asked = Date.now();
    const served = await retrying.completions.create({ model: TEXT_MODEL, prompt: "one too many", max_tokens: 3 });
    assert.ok(["stop", "length"].includes(served.choices[0]!.finish_reason));
    await Promise.all(queued);
    assert.deepEqual(answers.map((a) => a.status), [429, 200]);
    assert.equal(answers[0]!.retryAfter, String(BUSY_RETRY_AFTER_SECONDS));
    // The SDK's own backoff without the header is under a second.
    assert.ok(answers[1]!.at - asked >= BUSY_RETRY_AFTER_SECONDS * 1000, `retried after ${answers[1]!.at - asked} ms`);
    await untilIdle();
  });

  it("drops a queued request whose client went away before its turn", async () => {
    const holder = await openStream(server, 8000);
    const queued = http.request(`${server.baseURL}/completions`, { method: "POST", headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json" } });
    queued.on("error", () => undefined); // destroyed on purpose below
    queued.end(JSON.stringify({ model: TEXT_MODEL, prompt: "waiting", max_tokens: 3 }));
    while ((await metrics()).sequences.waiting < 1) await new Promise((r) => setImmediate(r));
    queued.destroy();
    let state = await metrics();
    while (state.sequences.waiting > 0) state = await new Promise((r) => setImmediate(r)).then(metrics);
    // Left the queue while the long stream still holds the only sequence: dropped, not served.
    assert.equal(state.sequences.busy, 1);
    holder.destroy();
    await untilIdle();
  });

  it("records a request whose client left while it was queued (499), so a stop neither waits for its record nor calls it lost", async () => {
    const own = await startServer({ parallel: 1, contextSize: 8192, maxQueue: 2 });
    const stored: RecordedUsage[] = [];
    const record = own.deps.store.usage.record.bind(own.deps.store.usage);
    own.deps.store.usage.record = (event) => (stored.push(event), record(event));
    try {
      const holder = await openStream(own, 8000);
      const queued = http.request(`${own.baseURL}/completions`, { method: "POST", headers: { authorization: `Bearer ${own.key}`, "content-type": "application/json" } });
      queued.on("error", () => undefined); // destroyed on purpose below
      queued.end(JSON.stringify({ model: TEXT_MODEL, prompt: "waiting", max_tokens: 3 }));
      while ((await metricsOf(own)).sequences.waiting < 1) await new Promise((r) => setImmediate(r));
      queued.destroy();
      while ((await metricsOf(own)).sequences.waiting > 0) await new Promise((r) => setImmediate(r));
      holder.destroy();
      await untilIdleOf(own);
      const lines: string[] = [];
      const started = Date.now();
      await drain(own.app, own.deps, (line) => lines.push(line));
      assert.ok(Date.now() - started < 2_000, `the stop took ${Date.now() - started} ms`);
      assert.equal(lines.at(-1), "stopped");
      // The held stream, and the queued request: 499, nothing used.
      assert.deepEqual(stored.map((e) => [e.model, e.status]).sort(), [[TEXT_MODEL, 200], [TEXT_MODEL, 499]]);
      assert.equal(stored.find((e) => e.status === 499)!.prompt_tokens, 0);
      const buckets = (await own.deps.store.usage.buckets(0)).filter((b) => b.model === TEXT_MODEL);
      assert.equal(buckets.reduce((n, b) => n + b.requests, 0), 2);
    } finally {
      await own.close();
    }
  });

  it("stops generating when the client disconnects mid-stream and frees the sequence", async () => {
    await assertStopsOnDisconnect(server, RUN_MAX_TOKENS);
  });

  it("stops within one step on node-llama-cpp's own decode path (--no-native-step) too", async () => {
    const pooled = await startServer({ parallel: 1, contextSize: 8192, maxQueue: 2, nativeStep: false });
    try {
      // One token per step there: the step in flight when the close arrived is all that may follow.
      await assertStopsOnDisconnect(pooled, 1);
    } finally {
      await pooled.close();
    }
  });
});

/**
 * A long stream whose client goes away: the server counts the request as aborted, generates no
 * more than `afterAbortLimit` tokens once it sees the close (its own count, so no speed enters the
 * check), frees the sequence, and serves the next request at once.
 */
async function assertStopsOnDisconnect(server: TestServer, afterAbortLimit: number): Promise<void> {
  const metrics = () => metricsOf(server);
  const before = await metrics();
  const maxTokens = 8000;
  const request = await openStream(server, maxTokens);
  const during = await metrics();
  assert.equal(during.sequences.busy, 1);
  request.destroy();
  const after = await untilIdleOf(server);
  assert.equal(after.aborted, before.aborted + 1);
  const generated = after.completionTokens - before.completionTokens;
  assert.ok(generated < maxTokens, `generated ${generated} of ${maxTokens}`);
  const afterAbort = after.tokensAfterAbort - before.tokensAfterAbort;
  assert.ok(afterAbort <= afterAbortLimit, `${afterAbort} tokens generated after the server saw the client leave (at most ${afterAbortLimit})`);
  // The single sequence is free again: the next request is served, not queued behind it.
  const next = await server.client.completions.create({ model: TEXT_MODEL, prompt: "next", max_tokens: 3 });
  assert.ok(["stop", "length"].includes(next.choices[0]!.finish_reason));
  const last = await metrics();
  assert.equal(last.completionTokens - after.completionTokens, next.usage!.completion_tokens);
  assert.equal(last.sequences.busy, 0);
}
