import assert from "node:assert/strict";
import { answerText, splitThinking } from "../../../../src/core/chat/thinking";
import { commitBoxText } from "../../../../src/core/scm/commit-prompt";

describe("a reasoning model's thinking written into the answer", () => {
  it("reads gpt-oss's harmony channels a server passed on: analysis is the thinking, final the answer", () => {
    const text = "<|channel|>analysis<|message|>The user wants a sum. Use reduce.<|end|><|start|>assistant<|channel|>final<|message|>Use `reduce`:\n\n```js\nxs.reduce((a, b) => a + b, 0)\n```<|return|>";
    assert.deepEqual(splitThinking(text), { thinking: "The user wants a sum. Use reduce.", thinkingOpen: false, answer: "Use `reduce`:\n\n```js\nxs.reduce((a, b) => a + b, 0)\n```" });
    // While the analysis streams, and once it ended but the final channel has not begun.
    assert.deepEqual(splitThinking("<|channel|>analysis<|message|>The user wants"), { thinking: "The user wants", thinkingOpen: true, answer: "" });
    assert.deepEqual(splitThinking("<|channel|>analysis<|message|>Sum.<|end|><|start|>assistant"), { thinking: "Sum.", thinkingOpen: true, answer: "" });
    assert.equal(answerText("<|start|>assistant<|channel|>final<|message|>Hello.<|return|>"), "Hello.");
    assert.equal(commitBoxText("<|channel|>analysis<|message|>A new sum function.<|end|><|start|>assistant<|channel|>final<|message|>feat: add sum<|return|>", true), "feat: add sum");
  });

  it("leaves an answer that only mentions the channels as it is", () => {
    assert.equal(answerText("gpt-oss writes <|channel|>analysis<|message|> first."), "gpt-oss writes <|channel|>analysis<|message|> first.");
  });
});
