import assert from "node:assert/strict";
import type { ChatMessage } from "../../../../src/core/api/chat";
import { calibratedTokensPerChar, estimateTokens, trimToContext } from "../../../../src/core/chat/context-trim";

const msg = (role: ChatMessage["role"], chars: number): ChatMessage => ({ role, content: role[0]!.repeat(chars) });

describe("context trimming", () => {
  // 100 characters at 0.3 tokens per character + 6 per message = 36 tokens each.
  const history = [msg("system", 100), msg("user", 100), msg("assistant", 100), msg("user", 100), msg("assistant", 100), msg("user", 100)];

  it("keeps everything that fits", () => {
    const result = trimToContext(history, { contextTokens: 1000, maxTokens: 100 });
    assert.equal(result.droppedMessages, 0);
    assert.deepEqual(result.messages, history);
    assert.equal(result.promptTokens, estimateTokens(history));
    assert.ok(result.fits);
  });

  it("drops the oldest turns first, keeping the system prompt and the newest message, and starts on a question", () => {
    // Budget 4 messages (144 tokens): system + last + 2 more, but the oldest kept must be a user message.
    const result = trimToContext(history, { contextTokens: 144 + 100, maxTokens: 100 });
    assert.deepEqual(result.messages.map((m) => m.role), ["system", "user", "assistant", "user"]);
    assert.equal(result.messages[1], history[3]);
    assert.equal(result.droppedMessages, 2);
    assert.ok(result.promptTokens <= result.promptBudget);
  });

  it("keeps max_tokens for the answer, but never more than half the context", () => {
    assert.equal(trimToContext(history, { contextTokens: 1000, maxTokens: 300 }).promptBudget, 700);
    assert.equal(trimToContext(history, { contextTokens: 1000, maxTokens: 5000 }).promptBudget, 500);
  });

  it("says when even the newest message does not fit (it is still sent; the server has the last word)", () => {
    const result = trimToContext([msg("system", 100), msg("user", 5000)], { contextTokens: 400, maxTokens: 100 });
    assert.equal(result.fits, false);
    assert.equal(result.messages.length, 2);
  });

  it("learns the tokens per character from the server's prompt_tokens, within what tokenizers produce", () => {
    const messages = [msg("system", 500), msg("user", 500)];
    assert.equal(calibratedTokensPerChar(messages, 12 + 250), 0.25);
    assert.equal(calibratedTokensPerChar(messages, 12 + 5000), 1);
    assert.equal(calibratedTokensPerChar(messages, 13), 0.15);
    assert.equal(calibratedTokensPerChar([msg("user", 10)], 9), undefined, "too little text to learn from");
    // A better ratio changes what fits.
    const byDefault = trimToContext(history, { contextTokens: 260, maxTokens: 100 });
    const learned = trimToContext(history, { contextTokens: 260, maxTokens: 100, tokensPerChar: 0.1 });
    assert.ok(learned.droppedMessages < byDefault.droppedMessages);
  });
});
