import assert from "node:assert/strict";
import type { AssistantTurn, CodeAttachment, UserTurn } from "../../../../src/core/chat/conversation";
import { buildMessages, describeAttachment, fenceFor, formatAttachment, userContent } from "../../../../src/core/chat/prompt";

const selection: CodeAttachment = { id: "a1", path: "src/math.ts", language: "typescript", startLine: 3, endLine: 5, text: "export function add(a: number, b: number) {\n  return a + b;\n}", source: "selection" };
const user = (id: string, text: string, attachments: CodeAttachment[] = []): UserTurn => ({ id, role: "user", text, attachments, createdAt: 1 });
const answer = (id: string, text: string, status: AssistantTurn["status"] = "done"): AssistantTurn => ({ id, role: "assistant", text, model: "m", status, createdAt: 2 });

describe("chat prompt building", () => {
  it("a reasoning model's <think> block goes back no more than reasoning_content does; an answer that was only thinking goes back with its question left out", () => {
    const turns = [user("u1", "2 + 2?"), answer("a1", "<think>\nThe user asks for a sum.\n</think>\n\nIt is 4."), user("u2", "and 3 + 3?"), answer("a2", "<think>\nHmm, cut off here", "stopped"), user("u3", "and 4 + 4?")];
    assert.deepEqual(buildMessages("", turns), [
      { role: "user", content: "2 + 2?" },
      { role: "assistant", content: "It is 4." },
      { role: "user", content: "and 4 + 4?" },
    ]);
  });

  it("puts the selected code after the question, with its file, language and line range in a fenced block", () => {
    const content = userContent(user("u1", "  Why does this overflow?  ", [selection]));
    assert.equal(
      content,
      "Why does this overflow?\n\nsrc/math.ts, lines 3-5 (typescript):\n```typescript\nexport function add(a: number, b: number) {\n  return a + b;\n}\n```",
    );
  });

  it("says when the code is the visible part of a file rather than a selection", () => {
    const visible: CodeAttachment = { ...selection, source: "visible", startLine: 1, endLine: 1, text: "x" };
    assert.equal(describeAttachment(visible), "src/math.ts, line 1 (visible part; nothing selected)");
    assert.match(userContent(user("u", "", [visible])), /^src\/math\.ts, line 1 \(visible part; nothing selected\) \(typescript\):\n```typescript\nx\n```$/);
  });

  it("uses a fence longer than any backtick run in the code", () => {
    assert.equal(fenceFor("plain"), "```");
    assert.equal(fenceFor("a ```` b"), "`````");
    const tricky = { ...selection, text: "```\nnot the end\n```" };
    const formatted = formatAttachment(tricky);
    assert.ok(formatted.endsWith("\n````"), formatted);
    assert.match(formatted, /````typescript\n```\nnot the end\n```\n````$/);
  });

  it("sends the system prompt first, then the conversation; failed or empty answers and their questions are left out", () => {
    const turns = [user("u1", "first"), answer("a1", "one"), user("u2", "lost"), answer("a2", "", "error"), user("u3", "stopped early"), answer("a3", "partial", "stopped"), user("u4", "now")];
    assert.deepEqual(buildMessages("Be brief.", turns), [
      { role: "system", content: "Be brief." },
      { role: "user", content: "first" },
      { role: "assistant", content: "one" },
      { role: "user", content: "stopped early" },
      { role: "assistant", content: "partial" },
      { role: "user", content: "now" },
    ]);
    assert.deepEqual(buildMessages("   ", [user("u1", "hi")]), [{ role: "user", content: "hi" }], "a blank system prompt is not sent");
  });
});
