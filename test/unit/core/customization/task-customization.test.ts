import assert from "node:assert/strict";
import type { AssistantTurn, Chat } from "../../../../src/core/chat/conversation";
import { parseCustomAgent } from "../../../../src/core/customization/custom-agent";
import { planAgent } from "../../../../src/core/customization/plan-agent";
import { instructionsFor, parseScopedInstructions } from "../../../../src/core/customization/scoped-instructions";
import { chooseModel, taskCustomization } from "../../../../src/core/customization/task-customization";
import { allows } from "../../../../src/core/customization/tool-allow-list";

const python = parseScopedInstructions(".github/instructions/py.instructions.md", "---\napplyTo: '**/*.py'\n---\nUse type hints.");
const chat = (text: string, extra: Chat["turns"] = []): Chat => ({ id: "c", title: "t", createdAt: 0, updatedAt: 0, pending: [], turns: [...extra, { id: "q", role: "user", text, attachments: [], createdAt: 0 }] });

describe("what an agent, the files in play and a prompt file change in a task", () => {
  it("the agent's instructions and the instructions of the files the task names go in the system prompt", () => {
    const custom = taskCustomization({ chat: chat("Fix app.py"), run: { agent: "plan" }, agent: planAgent, instructions: [python], models: [] });
    assert.equal(custom.promptParts.length, 2);
    assert.match(custom.promptParts[0]!, /^You are working as the "Plan" agent\. [^\n]*\nYou are in planning mode/);
    assert.equal(custom.promptParts[1], "Instructions for files matching **/*.py (from .github/instructions/py.instructions.md):\nUse type hints.");
    assert.ok(allows(custom.allowList!, { name: "read_file" }));
    assert.ok(!allows(custom.allowList!, { name: "create_file" }));
  });

  it("an edited file's instructions come once per task, and not again for a file already in play", () => {
    const fresh = taskCustomization({ chat: chat("Add a module"), run: {}, agent: undefined, instructions: [python], models: [] });
    assert.equal(fresh.allowList, undefined, "Agent itself: every tool");
    assert.match(fresh.instructionsForEdit("src/a.py")!, /Use type hints\./);
    assert.equal(fresh.instructionsForEdit("src/b.py"), undefined, "once per task");
    assert.equal(fresh.instructionsForEdit("src/a.ts"), undefined);
    const named = taskCustomization({ chat: chat("Fix a.py"), run: {}, agent: undefined, instructions: [python], models: [] });
    assert.equal(named.instructionsForEdit("a.py"), undefined, "already in the system prompt");
  });

  it("applyTo **, **/* or * applies to every request, even with no file in play (as in VS Code); other globs need one", () => {
    const always = ["**", "**/*", "*"].map((glob) => parseScopedInstructions(`${glob}.instructions.md`, `---\napplyTo: '${glob}'\n---\nBe brief.`));
    const under = parseScopedInstructions("src.instructions.md", "---\napplyTo: 'src/**'\n---\nSource rules.");
    assert.deepEqual(instructionsFor([...always, under, python], []).map((i) => i.source), ["**.instructions.md", "**/*.instructions.md", "*.instructions.md"], "an Ask question or an edit naming no file");
    const task = taskCustomization({ chat: chat("Add a logging module"), run: {}, agent: undefined, instructions: [always[0]!, python], models: [] });
    assert.deepEqual(task.promptParts, ["Instructions for files matching ** (from **.instructions.md):\nBe brief."]);
    assert.doesNotMatch(task.instructionsForEdit("src/log.py")!, /Be brief/, "not again with an edit's result");
  });

  it("a prompt file's tools and model win over the agent's; the summary of a compacted conversation goes along", () => {
    const agent = parseCustomAgent("r.agent.md", "r", "---\ntools: [codebase]\nmodel: big-model\n---\nReview.");
    const summary: AssistantTurn = { id: "s", role: "assistant", text: "## Task\nShip it.", model: "m", status: "done", createdAt: 0, compaction: { replacedTurns: 2, auto: false, files: [], todos: [] } };
    const custom = taskCustomization({ chat: chat("go on", [summary]), run: { agent: "r", tools: ["editFiles"], models: ["small-model"] }, agent, instructions: [], models: ["small-model", "big-model"] });
    assert.equal(custom.model, "small-model");
    assert.ok(allows(custom.allowList!, { name: "create_file" }));
    assert.ok(!allows(custom.allowList!, { name: "read_file" }));
    assert.match(custom.promptParts.at(-1)!, /^The conversation so far was compacted into this summary[^\n]*\n## Task\nShip it\.$/);
  });

  it("a model the server lists is used (Copilot's vendor suffix dropped, any case); otherwise the chat model, with a notice", () => {
    assert.deepEqual(chooseModel(["GPT-5 (copilot)", "qwen"], ["Qwen", "gpt-5"]), { model: "gpt-5" });
    assert.deepEqual(chooseModel(["missing"], ["qwen"]), { modelNotice: 'The server lists no model named "missing": the chat model answers instead.' });
    assert.deepEqual(chooseModel([], ["qwen"]), {});
  });
});
