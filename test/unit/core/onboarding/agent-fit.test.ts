import assert from "node:assert/strict";
import { agentModelRefusal } from "../../../../src/core/onboarding/agent-fit";

describe("agentModelRefusal", () => {
  it("refuses the embedded models, saying what the agent needs", () => {
    assert.equal(
      agentModelRefusal({ model: "wisp-coder", contextTokens: 1024, contextSource: "server" }),
      "The agent cannot work with wisp-coder, one of the tiny embedded models: it needs a chat model that calls tools, with a context of 8k tokens or more.",
    );
  });

  it("refuses a context under 8k tokens, saying where the figure comes from", () => {
    assert.match(agentModelRefusal({ model: "small-chat", contextTokens: 4096, contextSource: "server" })!, /small-chat has 4,096 \(the server says\)/);
    assert.match(agentModelRefusal({ model: "big-chat", contextTokens: 2000, contextSource: "setting" })!, /wisp\.chat\.contextTokens says/);
  });

  it("lets a model with 8k or more try, and one whose context nobody states", () => {
    assert.equal(agentModelRefusal({ model: "scripted-chat", contextTokens: 8192, contextSource: "server" }), undefined);
    assert.equal(agentModelRefusal({ model: "hosted-model", contextTokens: 4096, contextSource: "default" }), undefined);
  });
});
