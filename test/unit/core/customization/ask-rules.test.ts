import assert from "node:assert/strict";
import { askRulesParts } from "../../../../src/core/customization/ask-rules";
import { instructionsParts } from "../../../../src/core/customization/paths-in-play";
import { parseScopedInstructions } from "../../../../src/core/customization/scoped-instructions";
import { maxRuleChars } from "../../../../src/core/agent/agent-prompt";
import { buildMessages } from "../../../../src/core/chat/prompt";
import { planChatRequest } from "../../../../src/core/chat/chat-request";
import type { UserTurn } from "../../../../src/core/chat/conversation";

describe("the project's rules in an Ask question", () => {
  const budget = { contextTokens: 8_000, maxTokens: 1_000 };

  it("each rules file is named by its path, in order", () => {
    const parts = askRulesParts([{ path: "AGENTS.md", text: "Run the tests.\n" }, { path: ".github/copilot-instructions.md", text: "Use tabs." }], budget);
    assert.deepEqual(parts, ["Project rules from AGENTS.md:\nRun the tests.", "Project rules from .github/copilot-instructions.md:\nUse tabs."]);
  });

  it("a large rules file is cut to a share of the context, with a note, so that the question is still sent with its earlier turns", () => {
    const huge = "Always write tests. ".repeat(5_000);
    const parts = askRulesParts([{ path: "AGENTS.md", text: huge }, { path: ".github/copilot-instructions.md", text: "Use tabs. ".repeat(100) }], budget);
    assert.match(parts[0]!, /^Project rules from AGENTS\.md:\nAlways write tests\./);
    assert.match(parts[0]!, /\n\[…cut at \d+ characters to fit the model's context\]$/);
    assert.deepEqual(parts.slice(1), ["[Project rules from .github/copilot-instructions.md left out to fit the model's context.]"]);
    const question: UserTurn = { id: "q", role: "user", text: "What does cart.py do?", attachments: [], createdAt: 0 };
    const earlier = [
      { id: "a", role: "user" as const, text: "Hi", attachments: [], createdAt: 0 },
      { id: "b", role: "assistant" as const, text: "Hello.", model: "m", status: "done" as const, createdAt: 0 },
    ];
    const planned = planChatRequest({ model: "m", systemPrompt: parts.join("\n\n"), temperature: 0, ...budget, contextSource: "server" }, [...earlier, question]);
    assert.ok(planned.fits);
    assert.equal(planned.droppedMessages, 0);
    assert.equal(planned.body.messages.at(-1)!.content, "What does cart.py do?");
    assert.ok(buildMessages(parts.join("\n\n"), [question])[0]!.content.length < huge.length / 4);
  });

  it("a file within the per-file limit and the budget is sent whole", () => {
    const text = "Rule. ".repeat(1_000);
    assert.equal(askRulesParts([{ path: "AGENTS.md", text }], { contextTokens: 128_000, maxTokens: 4_000 })[0], `Project rules from AGENTS.md:\n${text.trim()}`);
  });

  it("a large scoped instructions file shares the rules' room: cut with a note, and a later one is left out by name, so the question still fits", () => {
    const python = parseScopedInstructions(".github/instructions/python.instructions.md", `---\napplyTo: "**/*.py"\n---\n${"Use type hints everywhere. ".repeat(8_000)}`);
    const style = parseScopedInstructions(".github/instructions/style.instructions.md", `---\napplyTo: "**"\n---\n${"Prefer small functions. ".repeat(100)}`);
    const parts = askRulesParts([{ path: "AGENTS.md", text: "Run the tests." }], budget, [python, style]);
    assert.equal(parts[0], "Project rules from AGENTS.md:\nRun the tests.");
    assert.match(parts[1]!, /^Instructions for files matching \*\*\/\*\.py \(from \.github\/instructions\/python\.instructions\.md\):\nUse type hints everywhere\./);
    assert.match(parts[1]!, /\n\[…cut at \d+ characters to fit the model's context\]$/);
    assert.deepEqual(parts.slice(2), ["[Instructions from .github/instructions/style.instructions.md left out to fit the model's context.]"]);
    const question: UserTurn = { id: "q", role: "user", text: "Fix cart.py", attachments: [], createdAt: 0 };
    const planned = planChatRequest({ model: "m", systemPrompt: parts.join("\n\n"), temperature: 0, ...budget, contextSource: "server" }, [question]);
    assert.ok(planned.fits);
    assert.equal(planned.body.messages.at(-1)!.content, "Fix cart.py");
  });

  it("an instructions file in a task's or an edit's prompt is cut at the rules' per-file limit", () => {
    const huge = parseScopedInstructions("py.instructions.md", `---\napplyTo: "**/*.py"\n---\n${"x".repeat(200_000)}`);
    const [part] = instructionsParts([huge]);
    assert.ok(part!.length < maxRuleChars + 200, `${part!.length} characters`);
    assert.match(part!, new RegExp(`\\n\\[…cut at ${maxRuleChars} characters\\]$`));
  });
});
