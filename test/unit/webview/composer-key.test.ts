import assert from "node:assert/strict";
import { composerKey, type KeyPress } from "../../../src/webview/chat/composer-key";

const press = (key: string, more: Partial<KeyPress> = {}): KeyPress => ({ key, shiftKey: false, isComposing: false, keyCode: 0, ...more });

describe("prompt box keys", () => {
  it("Enter sends, Shift+Enter is a new line, Escape stops only a streaming answer", () => {
    assert.equal(composerKey(press("Enter"), false), "send");
    assert.equal(composerKey(press("Enter", { shiftKey: true }), false), "other");
    assert.equal(composerKey(press("Escape"), true), "stop");
    assert.equal(composerKey(press("Escape"), false), "other");
  });

  it("while an IME composes, Enter, Escape and the arrows are the IME's: no send, no stop, no pick in the @ menu", () => {
    for (const key of ["Enter", "Escape", "ArrowDown", "Tab"]) assert.equal(composerKey(press(key, { isComposing: true }), true), "ime", key);
    // The committing Enter as some engines report it: keyCode 229, isComposing false.
    assert.equal(composerKey(press("Enter", { keyCode: 229 }), true), "ime");
  });
});
