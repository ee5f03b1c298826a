import assert from "node:assert/strict";
import { agentSystemPrompt, maxRuleChars } from "../../../src/core/agent/agent-prompt";
import { wellFormed } from "../../harness/well-formed";

describe("the agent's system prompt", () => {
  it("cuts a long rules file without leaving half of an emoji (a lone surrogate, which OpenAI-compatible servers refuse)", () => {
    const text = `${"-".repeat(maxRuleChars - 2)}✅🚫 more rules`;
    const prompt = agentSystemPrompt({ workspaceName: "shop", platform: "linux", shell: "bash", rules: [{ path: "AGENTS.md", text }] });
    assert.ok(wellFormed(prompt), "the prompt holds a lone surrogate");
    assert.match(prompt, /Project rules from AGENTS\.md:\n-+✅\n\[…cut at 8000 characters\]$/);
  });
});
