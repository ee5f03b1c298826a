import assert from "node:assert/strict";
import { neverEnd, startServer, TEXT_MODEL } from "./server-fixture";
import { openStream } from "./upstream-fixture";

// Closing the server (Ctrl+C, an editor that stops its local server, a replica taken down) while
// streams are generating: llama.cpp crashes the process when a model is freed in the middle of a
// decode, so the generations must end first.
describe("closing the server while it generates", function () {
  this.timeout(120_000);

  it("stops every generation under way, and frees the model only once they have ended", async () => {
    const server = await startServer();
    const engine = server.deps.textEngine;
    const logitBias = await neverEnd(server);
    const body = { model: TEXT_MODEL, prompt: "Once upon a time", max_tokens: 100_000, logit_bias: logitBias };
    // Both sequences generating: each stream has sent text.
    const streams = await Promise.all([openStream(server, "/completions", body), openStream(server, "/completions", body)]);
    const before = engine.metrics();
    assert.equal(before.sequences.busy, 2);
    await server.close();
    const after = engine.metrics();
    assert.equal(after.sequences.busy, 0, "no sequence was still decoding when the model was freed");
    assert.equal(after.aborted - before.aborted, 2, "both generations were stopped, not run to their end");
    for (const stream of streams) assert.ok(!(await stream.text()).includes("[DONE]"), "a cut stream does not claim to have ended");
  });
});
