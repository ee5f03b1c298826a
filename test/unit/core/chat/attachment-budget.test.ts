import assert from "node:assert/strict";
import { fitLastQuestion } from "../../../../src/core/chat/attachment-budget";
import { planChatRequest } from "../../../../src/core/chat/chat-request";
import type { CodeAttachment, ChatTurn, UserTurn } from "../../../../src/core/chat/conversation";

const file = (id: string, lines: number, source: CodeAttachment["source"]): CodeAttachment => ({
  id,
  path: `src/${id}.ts`,
  language: "typescript",
  startLine: 1,
  endLine: lines,
  text: Array.from({ length: lines }, (_, i) => `const line${String(i).padStart(4, "0")} = ${i};`).join("\n"),
  source,
});

const question = (attachments: CodeAttachment[]): ChatTurn => ({ id: "q", role: "user", text: "How do these fit together?", attachments, createdAt: 0 });

describe("fitting a question's attachments to the context", () => {
  const setup = { model: "m", systemPrompt: "", temperature: 0, maxTokens: 200, contextTokens: 2000, contextSource: "server" as const };

  it("sends everything when it fits", () => {
    const turns = [question([file("small", 20, "file")])];
    assert.deepEqual(fitLastQuestion(setup, turns), { turns, cuts: [] });
  });

  it("cuts what Wisp found before what the user mentioned, and says so", () => {
    // Each line is 22 characters: 400 lines are about 2,640 tokens at 0.3 per character.
    const mentioned = file("mentioned", 150, "file");
    const found = file("found", 400, "found");
    const planned = planChatRequest(setup, [question([mentioned, found])]);
    const content = planned.body.messages.at(-1)!.content;
    assert.ok(content.includes(mentioned.text), "the mentioned file went whole");
    assert.ok(!content.includes("const line0399"), "the end of the found file was cut");
    assert.equal(planned.cuts.length, 1);
    assert.match(planned.cuts[0]!, /^src\/found\.ts, lines 1-400 \(found in the workspace\): first \d+ of 400 lines kept$/);
    assert.ok(planned.promptTokens <= planned.promptBudget, `${planned.promptTokens} <= ${planned.promptBudget}`);
  });

  it("leaves out a one-line minified file too long to fit, and says so (it went as an empty block, 'first 0 of 1 lines kept')", () => {
    const bundle: CodeAttachment = { ...file("bundle", 1, "file"), path: "dist/app.min.js", language: "javascript", text: "var a=function(b){return b+1};".repeat(7000) };
    const small = file("small", 20, "file");
    const planned = planChatRequest({ ...setup, contextTokens: 8192, maxTokens: 1024 }, [question([small, bundle])]);
    assert.deepEqual(planned.cuts, ["dist/app.min.js, line 1: left out"]);
    const content = planned.body.messages.at(-1)!.content;
    assert.ok(content.includes(small.text), "the other file went whole");
    assert.ok(!content.includes("app.min.js"), "no empty block for the bundle");
  });

  it("leaves out an attachment that would keep too little, and names it", () => {
    const fitted = fitLastQuestion({ ...setup, contextTokens: 900 }, [question([file("mentioned", 100, "file"), file("found", 100, "found")])]);
    assert.deepEqual(fitted.cuts, ["src/found.ts, lines 1-100 (found in the workspace): left out"]);
    assert.deepEqual((fitted.turns[0] as UserTurn).attachments.map((a) => a.id), ["mentioned"]);
  });
});
