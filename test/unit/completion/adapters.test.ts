import assert from "node:assert/strict";
import type { CompletionRequest } from "../../../src/core/api/types";
import { describeOutcome } from "../../../src/core/completion/describe-outcome";
import { clientCompletionStream } from "../../../src/extension/completion/client-stream";

describe("completion adapters", () => {
  it("maps a pipeline request onto the API client's /completions body", async () => {
    const bodies: CompletionRequest[] = [];
    let closed = 0;
    const client = {
      async *streamCompletion(req: CompletionRequest) {
        bodies.push(req);
        try {
          for (const text of ["a", "", "b", "c"]) yield { text };
        } finally {
          closed++;
        }
      },
    };
    const stream = clientCompletionStream(async () => client);
    const request = { model: "m", prompt: "p", suffix: "s", maxTokens: 9, temperature: 0, stop: ["\n"] };
    const seen: string[] = [];
    for await (const text of stream(request, new AbortController().signal)) {
      seen.push(text);
      if (text === "b") break; // the consumer stops early: the client's stream must be closed
    }
    assert.deepEqual(seen, ["a", "b"]);
    assert.deepEqual(bodies[0], { model: "m", prompt: "p", suffix: "s", max_tokens: 9, temperature: 0, stop: ["\n"] });
    assert.equal(closed, 1);
    for await (const _ of stream({ ...request, stop: [], suffix: undefined }, new AbortController().signal)) void _;
    assert.deepEqual(bodies[1], { model: "m", prompt: "p", max_tokens: 9, temperature: 0 });
  });

  it("describes outcomes for the log without the suggestion itself", () => {
    const shown = describeOutcome({ kind: "shown", text: "secretValue()", replace: 0, source: "type-through", multiline: false, latencyMs: 3.4 });
    assert.equal(shown, "shown from type-through (13 chars) in 3 ms");
    assert.equal(describeOutcome({ kind: "error", errorKind: "unreachable", message: "Cannot connect", latencyMs: 120 }), "error unreachable: Cannot connect in 120 ms");
    assert.equal(describeOutcome({ kind: "debounced", latencyMs: 80 }), "debounced in 80 ms");
  });
});
