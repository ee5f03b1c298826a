import assert from "node:assert/strict";
import type { ChatRequestBody, ChatSetup } from "../../../../src/core/chat/chat-request";
import { ChatSession, type ChatStreamDelta } from "../../../../src/core/chat/chat-session";
import { ChatStore } from "../../../../src/core/chat/chat-store";
import type { AssistantTurn, CodeAttachment } from "../../../../src/core/chat/conversation";
import { splitThinking } from "../../../../src/core/chat/thinking";
import { waitFor } from "../../../harness/wait-for";
import { MemoryStorage, counters } from "./memory-storage";

const setup: ChatSetup = { model: "m", systemPrompt: "sys", temperature: 0, maxTokens: 50, contextTokens: 4096, contextSource: "server" };
const attachment: CodeAttachment = { id: "a1", path: "x.py", language: "python", startLine: 1, endLine: 2, text: "def f():\n  pass", source: "selection" };

/** A session over a memory store whose stream is scripted per test. */
function harness(stream: (body: ChatRequestBody, signal: AbortSignal) => AsyncIterable<ChatStreamDelta>, setupFn: () => Promise<ChatSetup> = async () => setup) {
  const storage = new MemoryStorage();
  const ids = counters();
  const store = new ChatStore(storage, ids);
  const events: string[] = [];
  const deltas: { offset: number; text: string }[] = [];
  const notices: string[] = [];
  const session = new ChatSession({
    store,
    stream,
    setup: setupFn,
    newId: ids.newId,
    now: ids.now,
    events: {
      changed: () => events.push("changed"),
      delta: (_c, _t, offset, text) => deltas.push({ offset, text }),
      ended: (_c, turn) => events.push(`ended:${turn.status}`),
      notice: (text) => notices.push(text),
    },
  });
  const answer = () => store.active().turns.at(-1) as AssistantTurn;
  return { storage, store, session, events, deltas, notices, answer };
}

async function* scripted(parts: ChatStreamDelta[]): AsyncIterable<ChatStreamDelta> {
  for (const part of parts) yield part;
}

describe("chat session", () => {
  it("sends the message with the attached code, streams the answer into the store, and records usage", async () => {
    let sent: ChatRequestBody | undefined;
    const h = harness((body) => {
      sent = body;
      return scripted([{ content: "Hel" }, { content: "lo" }, { content: "", finishReason: "stop" }, { content: "", usage: { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 } }]);
    });
    h.session.attach(attachment);
    assert.equal(h.store.active().pending.length, 1);
    assert.equal(await h.session.send("What is this?"), true);
    assert.deepEqual(sent?.messages.map((m) => m.role), ["system", "user"]);
    assert.match(sent!.messages[1]!.content, /^What is this\?\n\nx\.py, lines 1-2 \(python\):\n```python\ndef f/);
    assert.deepEqual(h.deltas, [{ offset: 0, text: "Hel" }, { offset: 3, text: "lo" }]);
    const answer = h.answer();
    assert.equal(answer.text, "Hello");
    assert.equal(answer.status, "done");
    assert.equal(answer.finishReason, "stop");
    assert.equal(answer.maxTokens, 50, "the max_tokens asked: a shorter answer cut for length was cut by the context");
    assert.deepEqual(answer.usage, { prompt_tokens: 20, completion_tokens: 2, total_tokens: 22 });
    assert.equal(h.store.active().pending.length, 0, "attachments go with the message");
    assert.equal(h.store.active().title, "What is this?");
    assert.equal(h.events.at(-1), "ended:done");
  });

  it("thinking sent apart (reasoning_content) is shown as it comes, folded above the answer, and left out of the next request", async () => {
    const h = harness(() => scripted([{ content: "", reasoning: "The user " }, { content: "", reasoning: "greets me." }, { content: "Hello" }, { content: "", finishReason: "stop" }]));
    await h.session.send("Hi");
    await waitFor("the answer ended", () => h.answer(), (t) => t.status !== "streaming");
    assert.deepEqual(h.deltas[0], { offset: 0, text: "<think>\nThe user " }, "the thinking is shown while it comes (no empty wait)");
    assert.deepEqual(splitThinking(h.answer().text), { thinking: "The user greets me.", thinkingOpen: false, answer: "Hello" });
    let sent: ChatRequestBody | undefined;
    const next = harness((body) => {
      sent = body;
      return scripted([{ content: "ok" }]);
    });
    // The second question of the same conversation: the stored turn goes back as its answer only.
    next.store.put({ ...h.store.active() });
    await next.session.send("And?");
    await waitFor("the answer ended", () => next.answer(), (t) => t.status !== "streaming");
    assert.equal(sent?.messages.find((m) => m.role === "assistant")?.content, "Hello");
    // A stream that ends while thinking (max_tokens spent) leaves a closed block and no answer.
    const cut = harness(() => scripted([{ content: "", reasoning: "Let me" }, { content: "", finishReason: "length" }]));
    await cut.session.send("Hi");
    await waitFor("the answer ended", () => cut.answer(), (t) => t.status !== "streaming");
    assert.deepEqual(splitThinking(cut.answer().text), { thinking: "Let me", thinkingOpen: false, answer: "" });
  });

  it("an answer during which the clock is set back an hour still shows how long it took, not a negative time", async () => {
    const store = new ChatStore(new MemoryStorage(), counters());
    const ids = counters();
    let wall = 1_800_000_000_000;
    let monotonic = 5_000;
    let ended: AssistantTurn | undefined;
    const session = new ChatSession({
      store,
      setup: async () => setup,
      newId: ids.newId,
      now: () => wall,
      clock: () => monotonic,
      stream: async function* () {
        yield { content: "Hel" };
        // The wall clock is set back (by hand, an NTP sync) while the answer streams; 3.2 s pass.
        wall -= 3_600_000;
        monotonic += 3_200;
        yield { content: "lo" };
      },
      events: { changed: () => undefined, delta: () => undefined, ended: (_c, turn) => (ended = turn), notice: () => undefined },
    });
    await session.send("hi");
    const turn = await waitFor("the answer's end", () => ended, (t) => t !== undefined);
    assert.equal(turn!.finishedAt! - turn!.createdAt, 3_200);
  });

  it("Stop aborts the request at once and keeps the text so far", async () => {
    let aborted = false;
    const h = harness(async function* (_body, signal) {
      yield { content: "partial " };
      await new Promise<void>((_, reject) => signal.addEventListener("abort", () => ((aborted = true), reject(new Error("aborted")))));
    });
    const done = h.session.send("go");
    await waitFor("the first part of the answer", () => h.deltas.some((d) => d.text === "partial "), (seen) => seen);
    assert.equal(h.session.isStreaming(h.store.active().id), true);
    h.session.stop(h.store.active().id);
    await done;
    assert.equal(aborted, true);
    assert.equal(h.answer().status, "stopped");
    assert.equal(h.answer().text, "partial ");
    assert.equal(h.session.isStreaming(h.store.active().id), false);
  });

  it("records failures with their kind (for the way out), and Regenerate replaces the failed answer", async () => {
    let calls = 0;
    const h = harness(() => {
      calls++;
      if (calls === 1) throw Object.assign(new Error('No API key is set. Run "Wisp: Set API Key".'), { kind: "no-key" });
      return scripted([{ content: "ok", finishReason: "stop" }]);
    });
    await h.session.send("hi");
    assert.equal(h.answer().status, "error");
    assert.deepEqual(h.answer().error, { kind: "no-key", message: 'No API key is set. Run "Wisp: Set API Key".' });
    await h.session.regenerate();
    assert.equal(h.store.active().turns.length, 2, "the failed answer was replaced");
    assert.equal(h.answer().text, "ok");
  });

  it("a failing setup (no model) is an inline error too", async () => {
    const h = harness(() => scripted([]), async () => {
      throw Object.assign(new Error("The server lists no chat model."), { kind: "no-model" });
    });
    await h.session.send("hi");
    assert.equal(h.answer().error?.kind, "no-model");
  });

  it("tells the user when older turns were left out", async () => {
    const h = harness(() => scripted([{ content: "x", finishReason: "stop" }]), async () => ({ ...setup, contextTokens: 200, maxTokens: 50 }));
    for (let i = 0; i < 4; i++) await h.session.send(`question ${i} `.repeat(20));
    assert.ok(h.notices.length > 0);
    assert.match(h.notices[0]!, /earlier messages? (was|were) left out to fit the model's context of 200 tokens/);
    assert.ok((h.answer().droppedMessages ?? 0) > 0);
  });

  it("refuses a second message while an answer streams, and an empty message", async () => {
    let release: () => void = () => {};
    const h = harness(async function* () {
      await new Promise<void>((r) => (release = r));
      yield { content: "done", finishReason: "stop" };
    });
    assert.equal(await h.session.send("   "), false);
    const first = h.session.send("one");
    await waitFor("the first answer to stream", () => h.session.isStreaming(h.store.active().id), (streaming) => streaming);
    assert.equal(await h.session.send("two"), false);
    release();
    await first;
    assert.equal(h.store.active().turns.length, 2);
  });

  it("after the server refuses a conversation longer than its context, Retry leaves out enough older turns to fit", async () => {
    // A server whose tokenizer makes 0.6 tokens of a character (the client assumes 0.3) and reports no usage.
    const context = 1000;
    const tokens = (body: ChatRequestBody) => body.messages.reduce((sum, m) => sum + 6 + Math.ceil(m.content.length * 0.6), 0);
    const sent: number[] = [];
    const h = harness(
      (body) => {
        const prompt = tokens(body);
        sent.push(body.messages.length);
        if (prompt + 1 > context) {
          const message = `http://127.0.0.1/v1 refused the request (400): This model's maximum context length is ${context} tokens. However, you requested ${prompt + 1} tokens (${prompt} in the messages, 1 in the completion). Please reduce the length of the messages.`;
          throw Object.assign(new Error(message), { kind: "bad-request", code: "context_length_exceeded" });
        }
        return scripted([{ content: "a".repeat(400), finishReason: "stop" }]);
      },
      async () => ({ ...setup, contextTokens: context, maxTokens: 100 }),
    );
    for (let i = 0; h.answer()?.status !== "error"; i++) {
      assert.ok(i < 10, "the conversation outgrew the context");
      await h.session.send(`question ${i} `.repeat(30));
    }
    assert.match(h.answer().error!.message, /maximum context length is 1000 tokens.* Retry sends fewer of the earlier messages\.$/);
    const refused = sent.at(-1)!;
    await h.session.regenerate();
    assert.equal(h.answer().status, "done", h.answer().error?.message);
    assert.ok(sent.at(-1)! < refused, `the retry sent ${sent.at(-1)} messages, the refused request ${refused}`);
    assert.ok((h.answer().droppedMessages ?? 0) > 0, "the answer says older messages were left out");
  });

  it("an answer running at shutdown is recorded as interrupted, not stopped by the user", async () => {
    const h = harness(async function* (_body, signal) {
      yield { content: "so far" };
      await new Promise<void>((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
    });
    const done = h.session.send("go");
    await waitFor("the first part of the answer", () => h.deltas.some((d) => d.text === "so far"), (seen) => seen);
    h.session.shutdown();
    // Recorded at once, with the text so far: the process may end before the stream unwinds.
    assert.deepEqual([h.answer().status, h.answer().text], ["interrupted", "so far"]);
    await done;
    assert.equal(h.answer().status, "interrupted");
  });
});
