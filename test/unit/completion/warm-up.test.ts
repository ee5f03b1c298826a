import assert from "node:assert/strict";
import { CompletionPipeline } from "../../../src/core/completion/pipeline";
import type { CompletionSettings, CompletionStreamRequest } from "../../../src/core/completion/types";
import { FakeClock, settle } from "./fake-clock";
import { FakeServer, type FakeReply } from "./fake-server";
import { inputAt } from "./input-at";

const settings: CompletionSettings = { model: "wisp-tiny", template: "auto", maxTokens: 64, debounceMs: 100 };
const doc = "export function area(r: number): number {\n  █\n}\n";

function harness(reply: (req: CompletionStreamRequest) => FakeReply) {
  const clock = new FakeClock();
  const server = new FakeServer(reply, clock);
  const pipeline = new CompletionPipeline({ stream: server.stream, settings: () => settings, clock });
  return { clock, server, pipeline };
}

/** The prompt evaluation takes 500 ms, then nothing is generated. */
const warmOrAnswer = (req: CompletionStreamRequest): FakeReply => (req.maxTokens === 0 ? { chunks: [""], chunkDelayMs: 500 } : { chunks: ["return 1;"] });

describe("prompt warm-up", () => {
  it("asks the server to evaluate the prompt a completion at the cursor would send, generating nothing", async () => {
    const h = harness(warmOrAnswer);
    h.pipeline.warm(inputAt(doc));
    await settle();
    const completion = h.pipeline.complete({ ...inputAt(doc), manual: true }, new AbortController().signal);
    await h.clock.advance(600);
    assert.equal((await completion).kind, "shown");
    const [warm, real] = h.server.requests;
    assert.equal(warm?.maxTokens, 0);
    assert.equal(warm?.prompt, real?.prompt);
    assert.equal(warm?.suffix, real?.suffix);
    assert.equal(real?.maxTokens, settings.maxTokens);
  });

  it("the same prompt is warmed once; a newer one replaces the running one", async () => {
    const h = harness(warmOrAnswer);
    h.pipeline.warm(inputAt(doc));
    h.pipeline.warm(inputAt(doc));
    await settle();
    assert.equal(h.server.requests.length, 1);
    h.pipeline.warm(inputAt(doc, { uri: "file:///work/b.ts" }));
    await settle();
    assert.equal(h.server.requests.length, 2);
    await h.clock.advance(1);
    assert.equal(h.server.stoppedEarly, 1, "the first warm-up was stopped");
  });

  it("a completion in the same file waits for its warm-up, then asks (not beside it, evaluating it again)", async () => {
    const h = harness(warmOrAnswer);
    h.pipeline.warm(inputAt(doc));
    await settle();
    const completion = h.pipeline.complete({ ...inputAt(doc), manual: true }, new AbortController().signal);
    await h.clock.advance(400);
    assert.equal(h.server.requests.length, 1, "still warming");
    await h.clock.advance(200);
    assert.equal(h.server.requests.length, 2);
    assert.equal((await completion).kind, "shown");
    assert.equal(h.server.stoppedEarly, 0);
  });

  it("a completion in another file stops the warm-up and goes ahead", async () => {
    const h = harness(warmOrAnswer);
    h.pipeline.warm(inputAt(doc, { uri: "file:///work/other.ts" }));
    await settle();
    const outcome = await h.pipeline.complete({ ...inputAt(doc), manual: true }, new AbortController().signal);
    assert.equal(outcome.kind, "shown");
    await h.clock.advance(1);
    assert.equal(h.server.stoppedEarly, 1);
  });

  it("a failed warm-up is nobody's error: completions go on, and it may be tried again", async () => {
    const error = Object.assign(new Error("Cannot reach the server"), { kind: "unreachable" });
    const h = harness((req) => (req.maxTokens === 0 ? { chunks: [], error } : { chunks: ["return 1;"] }));
    h.pipeline.warm(inputAt(doc));
    await settle();
    const pending = h.pipeline.complete(inputAt(doc), new AbortController().signal);
    await h.clock.advance(200);
    assert.equal((await pending).kind, "shown", "not paused by a backoff");
    h.pipeline.warm(inputAt(doc));
    await settle();
    assert.equal(h.server.requests.filter((r) => r.maxTokens === 0).length, 2);
  });
});
