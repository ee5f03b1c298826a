import assert from "node:assert/strict";
import { ChatStore } from "../../../../src/core/chat/chat-store";
import { compactionMessages, filesChanged, nearlyFull, openTodos, transcriptOf } from "../../../../src/core/chat/compaction";
import { Compactor } from "../../../../src/core/chat/compactor";
import type { AssistantTurn, ChatTurn } from "../../../../src/core/chat/conversation";
import { buildMessages } from "../../../../src/core/chat/prompt";
import type { ChatRequestBody } from "../../../../src/core/chat/chat-request";
import type { AgentTask } from "../../../../src/core/agent/agent-task";
import { MemoryStorage } from "./memory-storage";

const user = (id: string, text: string): ChatTurn => ({ id, role: "user", text, attachments: [], createdAt: 0 });
const answer = (id: string, text: string, agent?: AgentTask): AssistantTurn => ({ id, role: "assistant", text, model: "m", status: "done", createdAt: 0, ...(agent ? { agent } : {}) });
const todoCall = (list: unknown) => ({ role: "assistant" as const, content: null, tool_calls: [{ id: "t", type: "function" as const, function: { name: "manage_todo_list", arguments: JSON.stringify(list) } }] });

const task: AgentTask = {
  steps: [{ kind: "tool", id: "s1", tool: "read_file", title: "read src/cart.js", status: "done" }],
  files: [
    { path: "src/cart.js", added: 2, removed: 1, created: false, review: "kept" },
    { path: "src/tmp.js", added: 1, removed: 0, created: true, review: "undone" },
  ],
  messages: [
    todoCall({ todoList: [{ id: 1, title: "Fix total", status: "completed" }, { id: 2, title: "Add tests", status: "in-progress" }, { id: 3, title: "Update docs", status: "not-started" }] }),
  ],
  end: "done",
};

describe("compacting a conversation", () => {
  it("reads the files changed (undone ones left out) and the open todos off the turns", () => {
    const turns = [user("q1", "Fix the cart total"), answer("a1", "Fixed.", task)];
    assert.deepEqual(filesChanged(turns), ["src/cart.js"]);
    assert.deepEqual(openTodos(turns), ["Add tests (in-progress)", "Update docs (not-started)"]);
    assert.deepEqual(openTodos([user("q", "hi"), answer("a", "hello")]), []);
  });

  it("the summary request carries the transcript, the recorded facts and what the user asked to keep", () => {
    const turns = [user("q1", "Fix the cart total"), answer("a1", "Fixed by multiplying by qty.", task)];
    const [system, request] = compactionMessages({ turns, focus: "the API decisions", contextTokens: 8192, maxTokens: 512 });
    assert.equal(system!.role, "system");
    assert.match(system!.content, /## Task .*## Decisions .*## Files changed .*## Open todos/);
    assert.match(request!.content, /Files changed \(as Wisp recorded them\): src\/cart\.js\./);
    assert.match(request!.content, /- Add tests \(in-progress\)\n- Update docs \(not-started\)/);
    assert.match(request!.content, /keep in particular: the API decisions/);
    assert.match(request!.content, /<conversation>\nUser: Fix the cart total\n\n\[read src\/cart\.js — done\]\n\[file changed: src\/cart\.js \(\+2 −1, kept\)\]/);
  });

  it("a reasoning model's <think> block is no part of the transcript", () => {
    assert.equal(transcriptOf([user("q1", "2 + 2?"), answer("a1", "<think>\nThe user asks for a sum.\n</think>\n\nIt is 4.")]), "User: 2 + 2?\n\nAssistant: It is 4.");
  });

  it("a transcript too long for the context keeps its newest part", () => {
    const turns = Array.from({ length: 40 }, (_, i) => [user(`q${i}`, `question ${i} ${"x".repeat(300)}`), answer(`a${i}`, `answer ${i}`)]).flat();
    const [, request] = compactionMessages({ turns, contextTokens: 2048, maxTokens: 256 });
    assert.match(request!.content, /oldest part of the conversation is left out/);
    assert.match(request!.content, /answer 39\n<\/conversation>$/);
    assert.ok(!request!.content.includes("question 0 "));
    assert.ok(request!.content.length * 0.3 < 2048);
  });

  it("cuts never split an emoji: /compact's request stays valid JSON for llama.cpp's server (a lone surrogate is refused)", () => {
    // Long answers of emoji (two code units each) cut at any offset, and a transcript cut at its start.
    for (let pad = 0; pad < 2; pad++) {
      const turns = Array.from({ length: 12 }, (_, i) => [user(`q${i}`, `${"x".repeat(pad)}${"🚀".repeat(2_100)}`), answer(`a${i}`, `${"y".repeat(pad + 1)}${"✅🎉".repeat(1_100)}`)]).flat();
      const [, request] = compactionMessages({ turns, contextTokens: 8192, maxTokens: 512 });
      assert.match(request!.content, /oldest part of the conversation is left out/);
      assert.match(request!.content, /more characters\]/);
      // encodeURIComponent throws on a lone surrogate, as a strict JSON reader refuses one.
      assert.doesNotThrow(() => encodeURIComponent(request!.content), `pad ${pad}: a lone surrogate in the request`);
    }
  });

  it("after compaction, requests carry the summary (and the kept facts) in the system message and go on from it", () => {
    const summary: AssistantTurn = { ...answer("s", "## Task\nFix the cart."), compaction: { replacedTurns: 4, auto: false, files: ["src/cart.js"], todos: ["Add tests"] } };
    const messages = buildMessages("Be brief.", [summary, user("q", "What is next?")]);
    assert.equal(messages.length, 2);
    assert.equal(messages[0]!.role, "system");
    assert.match(messages[0]!.content, /^Be brief\.\n\nThe conversation so far was compacted into this summary[^\n]*\n## Task\nFix the cart\.\n\nFiles changed so far: src\/cart\.js\.\n\nOpen todos:\n- Add tests$/);
    assert.deepEqual(messages[1], { role: "user", content: "What is next?" });
    // A summary still streaming stands for nothing yet.
    assert.equal(buildMessages("", [{ ...summary, status: "streaming" }, user("q", "x")]).length, 1);
    assert.match(transcriptOf([summary, user("q", "x")]), /^Summary of the conversation before this point:\n## Task/);
  });

  it("the transcript for the summary masks what a command printed, as the model gets a command's output (a chat saved before steps were masked holds it raw)", () => {
    const token = "ghp_0123456789abcdefghijABCDEFGHIJ012345";
    const ran: AgentTask = {
      steps: [
        { kind: "tool", id: "s1", tool: "run_in_terminal", title: "ran env", status: "done", command: "env", exitCode: 0, output: `HOME=/home/me\nGITHUB_TOKEN=${token}\nPATH=/usr/bin\n` },
        { kind: "tool", id: "s2", tool: "run_in_terminal", title: "ran curl", status: "failed", note: "401 for Authorization: Bearer abc.def-ghi" },
      ],
      files: [],
      messages: [],
      end: "done",
    };
    const turns = [user("q1", "Why does the deploy fail?"), answer("a1", "The token is rejected.", ran)];
    const [, request] = compactionMessages({ turns, contextTokens: 8192, maxTokens: 512 });
    assert.ok(request!.content.includes(`[ran env — done: HOME=/home/me\nGITHUB_TOKEN=[masked]\nPATH=/usr/bin]`), request!.content);
    assert.ok(request!.content.includes("[ran curl — failed: 401 for Authorization: Bearer [masked]]"), request!.content);
    assert.ok(!request!.content.includes(token) && !request!.content.includes("abc.def-ghi"), request!.content);
  });

  it("compacts when the next message would fill the given share of the prompt budget, or drop messages", () => {
    assert.ok(nearlyFull({ promptTokens: 860, promptBudget: 1000, droppedMessages: 0 }, 85));
    assert.ok(!nearlyFull({ promptTokens: 840, promptBudget: 1000, droppedMessages: 0 }, 85));
    assert.ok(nearlyFull({ promptTokens: 100, promptBudget: 1000, droppedMessages: 2 }, 85));
    assert.ok(!nearlyFull({ promptTokens: 990, promptBudget: 1000, droppedMessages: 3 }, 0), "0 turns it off");
  });

  describe("Compactor", () => {
    const setup = async () => ({ model: "m", systemPrompt: "", temperature: 0, maxTokens: 100, contextTokens: 4096, contextSource: "server" as const });
    const make = (stream: (body: ChatRequestBody, signal: AbortSignal) => AsyncIterable<{ content: string }>) => {
      const store = new ChatStore(new MemoryStorage(), { newId: (() => { let n = 0; return () => `id${++n}`; })(), now: () => 1 });
      const events: string[] = [];
      const compactor = new Compactor({ store, stream, setup, newId: (() => { let n = 0; return () => `t${++n}`; })(), now: () => 2, events: { changed: () => events.push("changed"), delta: (_c, _t, _o, text) => events.push(`delta:${text}`), ended: () => events.push("ended"), notice: () => {} } });
      const chat = store.active();
      store.put({ ...chat, turns: [user("q1", "Fix the total"), answer("a1", "Done.", task), user("q2", "Thanks"), answer("a2", "You're welcome.")] });
      return { store, compactor, events, chatId: chat.id };
    };

    it("streams the summary, then it replaces every turn, with the facts kept", async () => {
      const bodies: ChatRequestBody[] = [];
      const { store, compactor, events, chatId } = make(async function* (body) {
        bodies.push(body);
        yield { content: "## Task\n" };
        yield { content: "Fix the total." };
      });
      const result = await compactor.compact(chatId, { auto: true });
      assert.ok(result.ok);
      const turns = store.get(chatId)!.turns;
      assert.equal(turns.length, 1);
      const [summary] = turns as AssistantTurn[];
      assert.equal(summary!.text, "## Task\nFix the total.");
      assert.equal(summary!.status, "done");
      assert.deepEqual(summary!.compaction, { replacedTurns: 4, auto: true, files: ["src/cart.js"], todos: ["Add tests (in-progress)", "Update docs (not-started)"] });
      assert.deepEqual(events.filter((e) => e.startsWith("delta")), ["delta:## Task\n", "delta:Fix the total."]);
      assert.equal(bodies.length, 1);
      assert.match(bodies[0]!.messages[1]!.content, /User: Thanks/);
    });

    it("a failed summary leaves the conversation as it was and says why", async () => {
      const { store, compactor, chatId } = make(async function* () {
        yield { content: "" };
        throw Object.assign(new Error("The server is down"), { kind: "unreachable" });
      });
      const before = store.get(chatId)!.turns;
      const result = await compactor.compact(chatId, { auto: false });
      assert.deepEqual(result, { ok: false, reason: "Compacting failed (The server is down); the conversation is unchanged." });
      assert.deepEqual(store.get(chatId)!.turns, before);
    });

    it("a stopped summary says it was stopped (a question waiting on it is not sent), unlike a failed one", async () => {
      let streaming!: () => void;
      const started = new Promise<void>((resolve) => (streaming = resolve));
      const { store, compactor, chatId } = make(async function* (_body, signal) {
        yield { content: "## Task\n" };
        streaming();
        await new Promise((resolve) => signal.addEventListener("abort", resolve));
        throw new Error("aborted");
      });
      const before = store.get(chatId)!.turns;
      const compacting = compactor.compact(chatId, { auto: true });
      await started;
      compactor.stop(chatId);
      assert.deepEqual(await compacting, { ok: false, reason: "Compacting was stopped; the conversation is unchanged.", stopped: true });
      assert.deepEqual(store.get(chatId)!.turns, before);
    });

    it("an empty chat has nothing to compact", async () => {
      const { store, compactor } = make(async function* () {});
      const empty = store.create();
      assert.deepEqual(await compactor.compact(empty.id, { auto: false }), { ok: false, reason: "There is nothing to compact yet." });
    });
  });
});
