import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ChatStore, chatIndexKey } from "../../../src/core/chat/chat-store";
import { ChatViewMemory } from "../../../src/core/chat/view-memory";
import { withTurn, withUserTurn, type AssistantTurn, type Chat } from "../../../src/core/chat/conversation";
import { FileChatStorage } from "../../../src/extension/chat/file-chat-storage";
import type { Logger } from "../../../src/extension/logger";
import { TempDirs } from "../../harness/temp-dirs";

const log = { info() {}, error() {}, warn() {} } as unknown as Logger;

/** A question and its answer, as the chat session stores them: read the chat, add, put. */
function ask(store: ChatStore, chatId: string, question: string, now: number): void {
  const asked = withUserTurn(store.get(chatId)!, { id: `u-${question}`, role: "user", text: question, attachments: [], createdAt: now });
  store.put(asked);
  const answer: AssistantTurn = { id: `a-${question}`, role: "assistant", text: `answer to ${question}`, model: "m", status: "done", createdAt: now };
  store.put(withTurn(store.get(chatId)!, answer, now));
}

const texts = (chat: Chat | undefined) => chat?.turns.map((t) => t.text);

describe("chat: one workspace open in two windows (two extension hosts on one storage folder)", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());
  let ids = 0;
  let clock = 1_000;
  const open = (dir: string) => new ChatStore(FileChatStorage.open(dir, log), { newId: () => `chat${++ids}`, now: () => ++clock });

  it("a chat one window made is listed in the other, and stays listed after the other window writes its index", async () => {
    const dir = temp.make("two-windows");
    const windowA = open(dir);
    const windowB = open(dir);
    const made = windowA.create();
    ask(windowA, made.id, "where is the cart total computed", ++clock);
    await windowA.flush();
    // Window B goes on with its own chat: its index write must not drop window A's.
    ask(windowB, windowB.active().id, "what does main do", ++clock);
    await windowB.flush();
    assert.ok(windowB.list().some((s) => s.id === made.id), "window B's history lists window A's chat");
    assert.deepEqual(texts(windowB.get(made.id)), ["where is the cart total computed", "answer to where is the cart total computed"]);
    const reopened = open(dir);
    assert.deepEqual(reopened.list().map((s) => s.title).sort(), ["what does main do", "where is the cart total computed"]);
  });

  it("an answer one window wrote is kept when the other window, which showed the chat before it, goes on in the same chat", async () => {
    const dir = temp.make("two-windows-same-chat");
    const windowA = open(dir);
    const shared = windowA.active().id;
    await windowA.flush();
    // Window B opens on the same active chat and reads it (the chat view shows it).
    const windowB = open(dir);
    assert.equal(windowB.active().id, shared);
    ask(windowA, shared, "first question", ++clock);
    await windowA.flush();
    ask(windowB, shared, "second question", ++clock);
    await windowB.flush();
    assert.deepEqual(texts(open(dir).get(shared)), ["first question", "answer to first question", "second question", "answer to second question"]);
  });

  it("the unsent text of a chat in one window is kept when the other window keeps its own chat's", () => {
    const dir = temp.make("two-windows-drafts");
    const windowA = new ChatViewMemory(FileChatStorage.open(dir, log));
    const windowB = new ChatViewMemory(FileChatStorage.open(dir, log));
    void windowA.set("chat-a", { draft: "refactor the cart so that" });
    void windowB.set("chat-b", { draft: "why does main", scrollTop: 40 });
    assert.equal(windowB.get("chat-a").draft, "refactor the cart so that", "window B sees window A's draft");
    // A reload of either window.
    const reloaded = new ChatViewMemory(FileChatStorage.open(dir, log));
    assert.deepEqual([reloaded.get("chat-a").draft, reloaded.get("chat-b").draft], ["refactor the cart so that", "why does main"]);
  });
});

describe("chat: two windows writing the chat index at the same moment (two processes)", () => {
  const temp = new TempDirs();
  after(() => temp.removeAll());

  /** A second window's process writing the index `count` times; resolves with the errors it logged. */
  function otherWindow(dir: string, count: number, padding: number): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ["--import", "tsx", "test/harness/chat-index-writer.ts", dir, String(count), String(padding)], { stdio: ["ignore", "pipe", "inherit"] });
      let out = "";
      child.stdout.on("data", (d: Buffer) => (out += d.toString()));
      child.once("error", reject);
      child.once("exit", (code) => (code === 0 ? resolve(JSON.parse(out) as string[]) : reject(new Error(`writer exited ${code}`))));
    });
  }

  it("every write lands whole: none is refused, and the index read meanwhile is always one window's write, never a mix", async function () {
    this.timeout(120_000);
    const dir = temp.make("index-race");
    const windows = Promise.all([otherWindow(dir, 600, 20_000), otherWindow(dir, 600, 100)]);
    let done = false;
    void windows.finally(() => (done = true)).catch(() => undefined);
    const mixed: string[] = [];
    const file = join(dir, `${encodeURIComponent(chatIndexKey)}.json`);
    // Read while both write, as a third window opening would.
    while (!done) {
      await new Promise((resolve) => setImmediate(resolve));
      let text: string;
      try {
        text = readFileSync(file, "utf8");
      } catch {
        continue; // not written yet
      }
      try {
        JSON.parse(text);
      } catch {
        mixed.push(text.slice(-40));
      }
    }
    const errors = (await windows).flat();
    assert.deepEqual(errors, [], "writes a window logged as not saved");
    assert.deepEqual(mixed.slice(0, 3), [], `${mixed.length} reads of an index that was no one write`);
  });
});
