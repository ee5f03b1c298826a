import assert from "node:assert/strict";
import type { ChatTurn } from "../../../src/core/chat/conversation";
import { restoreInfos } from "../../../src/webview/chat/checkpoint-view";

const user = (id: string): ChatTurn => ({ id, role: "user", text: id, attachments: [], createdAt: 1 });
const answer = (id: string, ...paths: string[]): ChatTurn => ({
  id,
  role: "assistant",
  text: "",
  model: "m",
  status: "done",
  createdAt: 1,
  agent: { steps: [], messages: [], files: paths.map((path) => ({ path, added: 1, removed: 0, created: false, review: "pending" as const })) },
});

describe("webview/chat: what Restore Checkpoint of each request takes back", () => {
  const turns = [user("q1"), answer("a1", "notes.md", "cart.js"), user("q2"), answer("a2"), user("q3"), answer("a3", "cart.js", "b.js")];

  it("counts the request and the later ones, and lists their tasks' files once each, in the order they were changed", () => {
    const infos = restoreInfos(turns, { requests: ["q1", "q2", "q3"] }, false);
    assert.deepEqual(Object.fromEntries(infos), {
      q1: { requests: 3, files: ["notes.md", "cart.js", "b.js"] },
      q2: { requests: 2, files: ["cart.js", "b.js"] },
      q3: { requests: 1, files: ["cart.js", "b.js"] },
    });
  });

  it("offers it only on requests with a checkpoint, and on none while a task runs", () => {
    assert.deepEqual([...restoreInfos(turns, { requests: ["q2"] }, false).keys()], ["q2"]);
    assert.equal(restoreInfos(turns, { requests: ["q1", "q2", "q3"] }, true).size, 0);
    assert.equal(restoreInfos(turns, undefined, false).size, 0);
  });
});
