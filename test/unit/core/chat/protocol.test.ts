import assert from "node:assert/strict";
import { applyDelta, maxViewText, parseViewMessage } from "../../../../src/core/chat/protocol";

describe("chat protocol", () => {
  it("accepts each message the webview sends, keeping only its own fields", () => {
    assert.deepEqual(parseViewMessage({ type: "ready" }), { type: "ready" });
    assert.deepEqual(parseViewMessage({ type: "send", text: "hi", extra: "dropped" }), { type: "send", text: "hi" });
    assert.deepEqual(parseViewMessage({ type: "codeAction", action: "insert", code: "x()", language: "ts" }), { type: "codeAction", action: "insert", code: "x()", language: "ts" });
    assert.deepEqual(parseViewMessage({ type: "switchChat", id: "0b6c-4e2f" }), { type: "switchChat", id: "0b6c-4e2f" });
    assert.deepEqual(parseViewMessage({ type: "errorAction", action: "setApiKey" }), { type: "errorAction", action: "setApiKey" });
    assert.deepEqual(parseViewMessage({ type: "viewAsCode", draft: "" }), { type: "viewAsCode", draft: "" });
    assert.deepEqual(parseViewMessage({ type: "viewState", chatId: "c1", scrollTop: 120, draft: "half a qu" }), { type: "viewState", chatId: "c1", scrollTop: 120, draft: "half a qu" });
    assert.deepEqual(parseViewMessage({ type: "mentionQuery", requestId: 3, kind: "file", query: "src/ca" }), { type: "mentionQuery", requestId: 3, kind: "file", query: "src/ca" });
    assert.deepEqual(parseViewMessage({ type: "mentionQuery", requestId: 4, kind: "", query: "" }), { type: "mentionQuery", requestId: 4, kind: "", query: "" });
    assert.deepEqual(parseViewMessage({ type: "addMention", id: "m12" }), { type: "addMention", id: "m12" });
    assert.deepEqual(parseViewMessage({ type: "openFile", path: "src/cart.ts" }), { type: "openFile", path: "src/cart.ts" });
    assert.deepEqual(parseViewMessage({ type: "openFile", path: "src/cart.ts", line: 12 }), { type: "openFile", path: "src/cart.ts", line: 12 });
    assert.deepEqual(parseViewMessage({ type: "codeAction", action: "apply", code: "x()", language: "ts", path: "src/cart.ts" }), { type: "codeAction", action: "apply", code: "x()", language: "ts", path: "src/cart.ts" });
  });

  it("rejects unknown types, missing or mistyped fields, and oversized text", () => {
    const bad: unknown[] = [
      null,
      "ready",
      [],
      {},
      { type: "eval", code: "1" },
      { type: "toString" },
      { type: "__proto__" },
      { type: "send" },
      { type: "send", text: 42 },
      { type: "send", text: "x".repeat(maxViewText + 1) },
      { type: "codeAction", action: "exec", code: "rm -rf /", language: "sh" },
      { type: "codeAction", action: "insert", code: "x" },
      { type: "switchChat", id: "../../etc" },
      { type: "switchChat", id: "" },
      { type: "selectModel", model: "" },
      { type: "errorAction", action: "runCommand" },
      { type: "viewState", chatId: "c1", scrollTop: -1, draft: "" },
      { type: "viewState", chatId: "c1", scrollTop: Number.NaN, draft: "" },
    ];
    bad.push({ type: "mentionQuery", requestId: 1, kind: "folder", query: "" }, { type: "mentionQuery", requestId: 1.5, kind: "", query: "" }, { type: "addMention", id: "../x" }, { type: "openFile", path: "" }, { type: "openFile", path: "a.ts", line: 0 }, { type: "openFile", path: "a.ts", line: "3" }, { type: "codeAction", action: "apply", code: "x", language: "ts", path: "" });
    for (const message of bad) assert.equal(parseViewMessage(message), undefined, JSON.stringify(message));
  });

  it("applies streamed deltas in order, ignores ones already applied, and reports gaps", () => {
    assert.deepEqual(applyDelta("Hel", 3, "lo"), { text: "Hello", gap: false });
    assert.deepEqual(applyDelta("Hello", 3, "lo"), { text: "Hello", gap: false }, "a delta the state already had");
    assert.deepEqual(applyDelta("Hell", 3, "lo!"), { text: "Hello!", gap: false }, "partly known");
    assert.deepEqual(applyDelta("He", 3, "lo"), { text: "He", gap: true });
  });
});

describe("chat protocol: the switch's agents and handoffs", () => {
  it("accepts a mode with or without an agent, and a handoff by its answer and index", () => {
    assert.deepEqual(parseViewMessage({ type: "setMode", mode: "agent", agent: "custom:reviewer" }), { type: "setMode", mode: "agent", agent: "custom:reviewer" });
    assert.deepEqual(parseViewMessage({ type: "setMode", mode: "ask" }), { type: "setMode", mode: "ask" });
    assert.deepEqual(parseViewMessage({ type: "handoff", turnId: "t-1", index: 0 }), { type: "handoff", turnId: "t-1", index: 0 });
  });

  it("rejects an empty or oversized agent, and a handoff index that is not a small whole number", () => {
    for (const message of [
      { type: "setMode", mode: "agent", agent: "" },
      { type: "setMode", mode: "agent", agent: "x".repeat(300) },
      { type: "setMode", mode: "plan" },
      { type: "handoff", turnId: "t-1", index: -1 },
      { type: "handoff", turnId: "t-1", index: 1.5 },
      { type: "handoff", turnId: "t-1", index: 64 },
      { type: "handoff", turnId: "../x", index: 0 },
    ]) assert.equal(parseViewMessage(message), undefined, JSON.stringify(message));
  });
});
