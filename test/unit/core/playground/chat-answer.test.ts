import assert from "node:assert/strict";
import { wellFormed } from "../../../harness/well-formed";
import { answerFromResponse, applyStreamEvent, emptyAnswer } from "../../../../src/core/playground/chat-answer";

const chunk = (content: string | undefined, finish: string | null = null) => JSON.stringify({ object: "chat.completion.chunk", choices: [{ index: 0, delta: content === undefined ? {} : { content }, finish_reason: finish }] });

describe("playground chat answer", () => {
  it("builds the answer from stream chunks: text, finish reason, usage, then [DONE]", () => {
    const events = [
      JSON.stringify({ choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] }),
      chunk("Hel"),
      chunk("lo"),
      chunk(undefined, "length"),
      JSON.stringify({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 } }),
      "[DONE]",
    ];
    const answer = events.reduce(applyStreamEvent, emptyAnswer);
    assert.deepEqual(answer, { content: "Hello", finishReason: "length", usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 }, done: true });
  });

  it("keeps the text so far when the stream reports an error or sends garbage", () => {
    const failed = [chunk("par"), JSON.stringify({ error: { message: "model crashed", type: "server_error", param: null, code: null } })].reduce(applyStreamEvent, emptyAnswer);
    assert.equal(failed.content, "par");
    assert.equal(failed.error, "model crashed");
    assert.match(applyStreamEvent(emptyAnswer, "{nope").error!, /not JSON/);
  });

  it("reads a whole chat.completion body or an error body", () => {
    const body = { choices: [{ index: 0, message: { role: "assistant", content: "Hi" }, finish_reason: "stop" }], usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 } };
    assert.deepEqual(answerFromResponse(body), { content: "Hi", finishReason: "stop", usage: { prompt_tokens: 3, completion_tokens: 1, total_tokens: 4 }, done: true });
    assert.equal(answerFromResponse({ error: { message: "bad", type: "x" } }).error, "bad");
  });

  it("an event that is not JSON with an emoji at its 80th character is shown without half of it (no U+FFFD)", () => {
    const error = applyStreamEvent(emptyAnswer, `${"x".repeat(79)}😀 rest of a proxy's page`).error!;
    assert.ok(wellFormed(error), JSON.stringify(error));
    assert.match(error, /not JSON: x{79}$/);
  });
});
