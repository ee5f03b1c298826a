import assert from "node:assert/strict";
import { getEventListeners } from "node:events";
import type { LlamaContext, LlamaContextSequence, Token } from "node-llama-cpp";
import { SequencePool } from "../../../src/server/engines/text/sequence-pool";

/** A sequence that holds `tokens` (what it evaluated last), as far as the pool looks at it. */
function sequence(name: string, tokens: number[] = []) {
  const s = {
    name,
    tokens,
    compareContextTokens: (prompt: Token[]) => {
      let i = 0;
      while (i < prompt.length && i < s.tokens.length && prompt[i] === s.tokens[i]) i++;
      return { firstDifferentIndex: i };
    },
  };
  return s;
}

function pool(sequences: ReturnType<typeof sequence>[], holdMs = 100) {
  let next = 0;
  const context = { totalSequences: sequences.length, getSequence: () => sequences[next++] } as unknown as LlamaContext;
  return new SequencePool(context, 4, holdMs);
}

const prompt = (n: number, extra: number[] = []) => [...Array.from({ length: n }, (_, i) => i), ...extra] as Token[];
const name = (s: LlamaContextSequence[]) => (s[0] as unknown as { name: string }).name;
const signal = () => new AbortController().signal;

describe("text engine sequence pool", () => {
  it("gives a request the free sequence that shares most of its prompt", async () => {
    const p = pool([sequence("a", prompt(10)), sequence("b", prompt(200))]);
    assert.equal(name(await p.acquire(1, prompt(200, [7]), signal())), "b");
  });

  it("waits for a busy sequence holding the prompt (a cancelled request about to stop) rather than evaluate it again", async () => {
    const a = sequence("a", prompt(200));
    const p = pool([a, sequence("b")]);
    const first = await p.acquire(1, prompt(200), signal());
    assert.equal(name(first), "a");
    let second: LlamaContextSequence[] | undefined;
    void p.acquire(1, prompt(200, [1, 2]), signal()).then((s) => (second = s));
    await new Promise((done) => setTimeout(done, 20));
    assert.equal(second, undefined, "not given the free sequence at once");
    p.release(first);
    await new Promise((done) => setImmediate(done));
    assert.equal(second && name(second), "a");
  });

  it("takes a free sequence when the busy one does not come back in time", async () => {
    const p = pool([sequence("a", prompt(200)), sequence("b")], 30);
    await p.acquire(1, prompt(200), signal());
    const started = performance.now();
    const second = await p.acquire(1, prompt(200, [1]), signal());
    assert.equal(name(second), "b");
    assert.ok(performance.now() - started >= 25);
  });

  it("does not wait when no busy sequence holds more of the prompt", async () => {
    const p = pool([sequence("a", prompt(20)), sequence("b", prompt(200))], 10_000);
    await p.acquire(1, prompt(20), signal());
    assert.equal(name(await p.acquire(1, prompt(200, [3]), signal())), "b");
  });

  it("lets go of the request's signal once the request has its sequence, queued or not", async () => {
    const p = pool([sequence("a")]);
    const first = new AbortController();
    const held = await p.acquire(1, prompt(5), first.signal);
    assert.equal(getEventListeners(first.signal, "abort").length, 0, "served at once");
    const second = new AbortController();
    const queued = p.acquire(1, prompt(5), second.signal);
    assert.equal(getEventListeners(second.signal, "abort").length, 1, "listening while it waits");
    p.release(held);
    await queued;
    assert.equal(getEventListeners(second.signal, "abort").length, 0, "served from the queue");
  });

  it("rejects a waiting request with its signal's reason when it aborts", async () => {
    const p = pool([sequence("a")]);
    await p.acquire(1, prompt(5), signal());
    const waiting = new AbortController();
    const queued = p.acquire(1, prompt(5), waiting.signal);
    waiting.abort(new Error("client disconnected"));
    await assert.rejects(queued, /client disconnected/);
    assert.equal(p.waiting, 0);
  });
});
