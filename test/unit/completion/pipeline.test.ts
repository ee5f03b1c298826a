import assert from "node:assert/strict";
import { ContextRing } from "../../../src/core/completion/context-ring";
import { CompletionPipeline, type PipelineDeps } from "../../../src/core/completion/pipeline";
import type { CompletionInput, CompletionOutcome, CompletionSettings } from "../../../src/core/completion/types";
import { FakeClock, settle } from "./fake-clock";
import { FakeServer, type FakeReply } from "./fake-server";
import { inputAt } from "./input-at";

const settings: CompletionSettings = { model: "qwen2.5-coder-1.5b", template: "auto", maxTokens: 64, debounceMs: 100 };

/** A pipeline on a fake clock and a fake server, driven the way VS Code drives a provider. */
function harness(reply: (prompt: string) => FakeReply, overrides: Partial<CompletionSettings> = {}, deps: Pick<PipelineDeps, "ring" | "onMoreText"> = {}) {
  const clock = new FakeClock();
  const server = new FakeServer((req) => reply(req.prompt), clock);
  const pipeline = new CompletionPipeline({ stream: server.stream, settings: () => ({ ...settings, ...overrides }), clock, ...deps });
  let current: AbortController | undefined;
  /** A provider call: like VS Code, it cancels the previous call's token first. */
  const call = (input: CompletionInput): Promise<CompletionOutcome> => {
    current?.abort();
    current = new AbortController();
    return pipeline.complete(input, current.signal);
  };
  return { clock, server, pipeline, call, cancel: () => current?.abort() };
}

const line = (text: string) => inputAt(`function main() {\n  const x = ${text}█\n}\n`);

/**
 * The ghost text the user sees while typing: each keystroke's answer (a cancelled one changes
 * nothing) and, as the adapter's showRest does, the answer asked again (an explicit trigger)
 * once the rest of a block shown partly is ready, if the cursor is still where it was shown.
 */
function typist(reply: (prompt: string) => FakeReply) {
  let cursor: CompletionInput | undefined;
  let partialAt: CompletionInput | undefined;
  let ghost: string | undefined;
  const h = harness(reply, {}, {
    onMoreText: () => {
      const at = partialAt;
      partialAt = undefined;
      if (at && at === cursor) void ask({ ...at, manual: true }, at);
    },
  });
  const ask = async (input: CompletionInput, at: CompletionInput) => {
    const outcome = await h.call(input);
    if (at !== cursor || outcome.kind === "cancelled") return;
    ghost = outcome.kind === "shown" ? outcome.text : undefined;
    partialAt = outcome.kind === "shown" && outcome.partial ? at : undefined;
  };
  return {
    ...h,
    /** The document after a keystroke (cursor at █): the editor asks for ghost text there. */
    type: (doc: string) => {
      cursor = inputAt(doc);
      return ask(cursor, cursor);
    },
    get ghost() {
      return ghost;
    },
  };
}

describe("completion pipeline", () => {
  describe("debounce", () => {
    it("typing 20 characters fast sends one request, after the pause", async () => {
      const h = harness(() => ({ chunks: ["42;"] }));
      const typed = "computeTheAnswerNow(";
      const outcomes: Array<Promise<CompletionOutcome>> = [];
      for (let i = 1; i <= typed.length; i++) {
        outcomes.push(h.call(line(typed.slice(0, i))));
        await h.clock.advance(40);
      }
      await h.clock.advance(1000);
      const results = await Promise.all(outcomes);
      assert.equal(h.server.requests.length, 1);
      assert.deepEqual(results.slice(0, -1).map((r) => r.kind), Array(typed.length - 1).fill("debounced"));
      assert.equal(results.at(-1)?.kind, "shown");
    });

    it("learns a slow typist's rhythm instead of sending a request per key", async () => {
      const h = harness(() => ({ chunks: ["zzz"] }));
      const typed = "abcdefghijklmnopqrstuvwxyz";
      const outcomes: Array<Promise<CompletionOutcome>> = [];
      let learned = 0;
      for (let i = 1; i <= typed.length; i++) {
        outcomes.push(h.call(line(typed.slice(0, i))));
        await h.clock.advance(160); // slower than the 100 ms debounce
        if (i === 10) learned = h.server.requests.length;
      }
      await h.clock.advance(1000);
      await Promise.all(outcomes);
      assert.equal(learned, 8, "a request per key until 8 gaps show the rhythm");
      assert.equal(h.server.requests.length - learned, 1, "then only in the final pause");
    });

    it("where a pause is likely (a new line), the wait is a third of the debounce, not stretched for a slow typist", async () => {
      const h = harness(() => ({ chunks: ["zzz"] }));
      const typed = "abcdefghijkl";
      for (let i = 1; i <= typed.length; i++) {
        void h.call(line(typed.slice(0, i)));
        await h.clock.advance(160);
      }
      const requests = h.server.requests.length;
      const atLineStart = h.call(inputAt(`function main() {\n  const x = ${typed};\n  █\n}\n`));
      await h.clock.advance(32);
      assert.equal(h.server.requests.length, requests, "not sent before a third of the 100 ms debounce");
      await h.clock.advance(1); // not 1.25 x 160 ms
      assert.equal(h.server.requests.length, requests + 1);
      await h.clock.advance(100);
      assert.equal((await atLineStart).kind, "shown");
    });

    it("between words a request goes out a third of the debounce after the key, inside words none while typing", async () => {
      const h = harness(() => ({ chunks: ["42;"] }));
      const typed = "width * height + ";
      let last: Promise<CompletionOutcome> | undefined;
      for (let i = 1; i <= typed.length; i++) {
        last = h.call(line(typed.slice(0, i)));
        await h.clock.advance(i < typed.length ? 80 : 33); // keys inside the 100 ms debounce, then a hesitation
      }
      const sent = h.server.requests.map((r) => r.prompt.slice(r.prompt.indexOf("const x = ") + 10, r.prompt.indexOf("<|fim_suffix|>")));
      assert.deepEqual(sent, ["width ", "width *", "width * ", "width * height ", "width * height +", "width * height + "]);
      assert.deepEqual(pick(await last!), { kind: "shown", text: "42;", source: "network" });
    });

    it("the wait counts from the edit, not from the editor's later provider call", async () => {
      const h = harness(() => ({ chunks: ["1;"] }));
      await h.clock.advance(50); // the editor's own debounce between the keystroke and the call
      const pending = h.call({ ...line("a"), editedAt: 0 });
      await h.clock.advance(50);
      assert.equal(h.server.requests.length, 1, "sent 100 ms after the keystroke");
      assert.equal((await pending).kind, "shown");
    });

    it("a cancelled wait leaves no timer behind", async () => {
      const h = harness(() => ({ chunks: ["1"] }));
      const pending = h.call(line("a"));
      await h.clock.advance(10);
      h.cancel();
      assert.equal((await pending).kind, "debounced");
      assert.equal(h.clock.pendingTimers, 0);
      assert.equal(h.server.requests.length, 0);
    });

    it("an explicit trigger does not wait", async () => {
      const h = harness(() => ({ chunks: ["1;"] }));
      const outcome = await h.call({ ...line("a + "), manual: true });
      assert.equal(outcome.kind, "shown");
      assert.equal(h.clock.now(), 0);
    });
  });

  describe("cache and type-through", () => {
    it("typing what the suggestion shows serves the rest with no request", async () => {
      const h = harness(() => ({ chunks: ["compute(1, 2);"] }));
      const first = h.call(line(""));
      await h.clock.advance(200);
      assert.deepEqual(pick(await first), { kind: "shown", text: "compute(1, 2);", source: "network" });
      for (const [typed, rest] of [["c", "ompute(1, 2);"], ["com", "pute(1, 2);"], ["compute(1,", " 2);"]]) {
        assert.deepEqual(pick(await h.call(line(typed as string))), { kind: "shown", text: rest, source: "type-through" });
      }
      assert.equal(h.server.requests.length, 1);
    });

    it("going back to an earlier position is a cache hit", async () => {
      const h = harness((prompt) => ({ chunks: [prompt.includes("x = a<") ? "bc;" : "abc;"] }));
      const first = h.call(line(""));
      await h.clock.advance(200);
      await first;
      const diverged = h.call(line("x"));
      await h.clock.advance(1000);
      assert.equal((await diverged).kind, "shown");
      assert.deepEqual(pick(await h.call(line(""))), { kind: "shown", text: "abc;", source: "cache" });
      assert.equal(h.server.requests.length, 2);
    });

    it("remembers empty results for automatic triggers, not for explicit ones", async () => {
      const h = harness(() => ({ chunks: ["   "] }));
      const first = h.call(line("q"));
      await h.clock.advance(200);
      assert.equal((await first).kind, "empty");
      const again = await h.call(line("q"));
      assert.deepEqual(again.kind === "empty" && again.reason, "cached-empty");
      assert.equal(h.server.requests.length, 1);
      await h.call({ ...line("q"), manual: true });
      assert.equal(h.server.requests.length, 2);
    });
  });

  describe("in-flight requests", () => {
    const slow = (): FakeReply => ({ chunks: ["comp", "ute(", "1);"], chunkDelayMs: 100 });

    it("typing into a running request's prediction reuses it", async () => {
      const h = harness(slow);
      void h.call(line(""));
      await h.clock.advance(250); // sent at 33 (between words: a third of the debounce), "comp" arrived at 133
      const second = h.call(line("co"));
      await h.clock.advance(1000);
      assert.deepEqual(pick(await second), { kind: "shown", text: "mpute(1);", source: "reused" });
      assert.equal(h.server.requests.length, 1);
      assert.equal(h.server.stoppedEarly, 0);
    });

    it("typing before the request has streamed anything joins it on trust", async () => {
      const h = harness(slow);
      void h.call(line(""));
      await h.clock.advance(100); // sent at 33, nothing streamed yet
      const second = h.call(line("co"));
      await h.clock.advance(1000);
      assert.deepEqual(pick(await second), { kind: "shown", text: "mpute(1);", source: "reused" });
      assert.equal(h.server.requests.length, 1);
    });

    it("typing into a block while it streams shows the whole block, as once it has ended", async () => {
      const block = (): FakeReply => ({ chunks: ["if (a) {\n", "    go();\n", "  }\n", "  done();\n"], chunkDelayMs: 100 });
      const h = harness(block);
      void h.call({ ...inputAt("function f(a) {\n  █\n}\n"), manual: true });
      await h.clock.advance(120); // the first line has streamed (not yet shown early), the rest has not
      const typed = h.call({ ...inputAt("function f(a) {\n  i█\n}\n"), manual: true });
      await h.clock.advance(1000);
      assert.deepEqual(pick(await typed), { kind: "shown", text: "f (a) {\n    go();\n  }\n  done();", source: "reused" });
      assert.equal(h.server.requests.length, 1);
      // And it stays whole: the next key is served from the cache the same way.
      assert.deepEqual(pick(await h.call(inputAt("function f(a) {\n  if█\n}\n"))), { kind: "shown", text: " (a) {\n    go();\n  }\n  done();", source: "type-through" });
    });

    describe("typing into a block whose first line is shown while the rest streams", () => {
      // Sent at 33 (a fresh line: a third of the debounce), a line every 150 ms from 183, the
      // first one shown 50 ms after it, at 233; the block has arrived at 633.
      const block = (): FakeReply => ({ chunks: ["if (a) {\n", "    go();\n", "  }\n", "  done();\n"], chunkDelayMs: 150 });
      const at = (typed: string) => `function f(a) {\n  ${typed}█\n}\n`;

      it("shows the whole block once it has arrived, less what was typed, and caches it", async () => {
        const t = typist(block);
        void t.type(at(""));
        await t.clock.advance(240);
        assert.equal(t.ghost, "if (a) {");
        await t.type(at("i"));
        assert.equal(t.ghost, "f (a) {", "at once, from the first line");
        await t.clock.advance(100);
        await t.type(at("if"));
        assert.equal(t.ghost, " (a) {");
        await t.clock.advance(400);
        assert.equal(t.ghost, " (a) {\n    go();\n  }\n  done();", "the rest replaced the first line");
        await t.type(at("if "));
        assert.equal(t.ghost, "(a) {\n    go();\n  }\n  done();", "typing on is served the whole block");
        assert.equal(t.server.requests.length, 1);
        assert.equal(t.server.stoppedEarly, 0);
      });

      it("a block whose stream is cut keeps the lines it had", async () => {
        const t = typist(block);
        void t.type(at(""));
        await t.clock.advance(240);
        await t.type(at("i"));
        assert.equal(t.ghost, "f (a) {");
        await t.clock.advance(100); // the second line has arrived
        void t.type(at("iz")); // contradicts the block: its request is stopped
        await settle();
        assert.equal(t.server.stoppedEarly, 1);
        await t.clock.advance(10);
        await t.type(at("i")); // backspace, before "iz" sent a request
        assert.equal(t.ghost, "f (a) {\n    go();");
        assert.equal(t.server.requests.length, 1);
      });
    });

    it("a trusted guess that turns out wrong is dropped as soon as the stream shows it", async () => {
      const h = harness(slow);
      void h.call(line(""));
      await h.clock.advance(100); // sent at 33, nothing streamed yet
      const second = h.call(line("x"));
      await settle();
      assert.equal(h.server.stoppedEarly, 0, "joined, not cancelled");
      await h.clock.advance(33); // "comp" arrives at 133: it contradicts "x"
      assert.equal(h.server.stoppedEarly, 1);
      await h.clock.advance(67); // mid-word, the whole debounce, counted from the keystroke at 100
      assert.equal(h.server.requests.length, 2);
      await h.clock.advance(1000);
      assert.equal((await second).kind, "shown");
    });

    it("a keystroke that contradicts the prediction aborts the request at once", async () => {
      const h = harness(slow);
      void h.call(line(""));
      await h.clock.advance(250);
      void h.call(line("x"));
      await settle();
      assert.equal(h.server.stoppedEarly, 1);
    });

    it("a request nobody waits for is stopped after a grace period", async () => {
      const h = harness(() => ({ chunks: Array(50).fill("a"), chunkDelayMs: 100 }));
      void h.call(line(""));
      await h.clock.advance(150);
      h.cancel(); // e.g. Escape: no next call comes
      await h.clock.advance(250);
      assert.equal(h.server.stoppedEarly, 0, "kept for a keystroke that may still use it");
      await h.clock.advance(1000);
      assert.equal(h.server.stoppedEarly, 1);
    });

    it("a request that finishes after its caller left still fills the cache", async () => {
      const h = harness(slow);
      void h.call(line(""));
      await h.clock.advance(150);
      h.cancel();
      await h.clock.advance(300);
      assert.equal(h.server.completed, 1);
      assert.deepEqual(pick(await h.call(line("comp"))), { kind: "shown", text: "ute(1);", source: "type-through" });
    });
  });

  describe("streaming", () => {
    it("mid-line, reading stops at the first newline and the server is asked to stop there", async () => {
      const h = harness(() => ({ chunks: ["a, ", "b\n", "c", "d", "e"] }));
      const outcome = await h.call({ ...inputAt("foo(█)"), manual: true });
      assert.deepEqual(pick(outcome), { kind: "shown", text: "a, b", source: "network" });
      assert.ok(h.server.requests[0]?.stop.includes("\n"));
      assert.equal(h.server.chunksSent, 2);
      assert.equal(h.server.stoppedEarly, 1);
    });

    it("a stop token stops reading upstream", async () => {
      const h = harness(() => ({ chunks: ["x", "<|endoftext|>", "y", "z"] }));
      const outcome = await h.call({ ...line(""), manual: true });
      assert.deepEqual(pick(outcome), { kind: "shown", text: "x", source: "network" });
      assert.equal(h.server.chunksSent, 2);
      assert.equal(h.server.stoppedEarly, 1);
    });

    it("a multi-line suggestion stops at its line limit", async () => {
      const h = harness(() => ({ chunks: Array.from({ length: 20 }, (_, i) => `step${i}();\n`) }), { maxLines: 3 });
      const outcome = await h.call({ ...inputAt("█"), manual: true });
      assert.deepEqual(pick(outcome), { kind: "shown", text: "step0();\nstep1();\nstep2();", source: "network" });
      assert.ok(h.server.chunksSent <= 5);
      assert.equal(h.server.stoppedEarly, 1);
    });

    it("a slow multi-line suggestion shows its first line, then the whole block", async () => {
      const clock = new FakeClock();
      const server = new FakeServer(() => ({ chunks: ["a();\n", "  b();\n", "  c();"], chunkDelayMs: 100 }), clock);
      let more = 0;
      const pipeline = new CompletionPipeline({ stream: server.stream, settings: () => settings, clock, onMoreText: () => more++ });
      const input = inputAt("function main() {\n  █\n}\n");
      const first = pipeline.complete(input, new AbortController().signal);
      await clock.advance(260); // sent at 100, the first line at 200, shown 50 ms later
      const outcome = await first;
      assert.deepEqual(outcome.kind === "shown" && [outcome.text, outcome.partial], ["a();", true]);
      assert.equal(more, 0);
      await clock.advance(200);
      assert.equal(more, 1, "told that the whole block is ready");
      const again = await pipeline.complete({ ...input, manual: true }, new AbortController().signal);
      assert.deepEqual(pick(again), { kind: "shown", text: "a();\n  b();\n  c();", source: "cache" });
      assert.equal(server.requests.length, 1);
    });

    it("sends extra context from the ring before the prefix", async () => {
      const ring = new ContextRing();
      ring.add({ uri: "file:///lib.ts", path: "lib.ts", startLine: 0, endLine: 1, text: "export const answer = 42;" });
      const h = harness(() => ({ chunks: ["answer;"] }), {}, { ring });
      await h.call({ ...line(""), manual: true });
      assert.match(h.server.requests[0]?.prompt ?? "", /^<\|repo_name\|>workspace\n<\|file_sep\|>lib\.ts\nexport const answer = 42;\n<\|file_sep\|>src\/a\.ts\n<\|fim_prefix\|>function main/);
    });
  });

  describe("outcomes", () => {
    it("a typed server error keeps its kind", async () => {
      const error = Object.assign(new Error("Cannot reach the server"), { kind: "unreachable" });
      const h = harness(() => ({ chunks: [], error }));
      const outcome = await h.call({ ...line(""), manual: true });
      assert.deepEqual(outcome.kind === "error" && [outcome.errorKind, outcome.message], ["unreachable", "Cannot reach the server"]);
    });

    it("after a failed request, automatic triggers pause instead of failing on every key", async () => {
      const error = Object.assign(new Error("Cannot reach the server"), { kind: "unreachable" });
      const h = harness(() => ({ chunks: [], error }));
      const first = h.call(line("a"));
      await h.clock.advance(200);
      assert.equal((await first).kind, "error");
      const paused = await h.call(line("ab"));
      assert.deepEqual(paused.kind === "backoff" && paused.errorKind, "unreachable");
      assert.equal(h.server.requests.length, 1);
      await h.call({ ...line("ab"), manual: true }); // an explicit trigger still asks
      assert.equal(h.server.requests.length, 2);
      await h.clock.advance(5000); // the pause doubled to 4 s after the second failure
      const retried = h.call(line("abc"));
      await h.clock.advance(1000);
      assert.equal((await retried).kind, "error");
      assert.equal(h.server.requests.length, 3);
    });

    it("a request that fails while an automatic trigger waits out its debounce pauses that one too", async () => {
      const error = Object.assign(new Error("The server failed (500)"), { kind: "server" });
      const h = harness(() => ({ chunks: [], error }));
      // Separate tokens: the editor asks on a keystroke and on Alt+\ without one cancelling the other.
      const waiting = h.pipeline.complete(line("a"), new AbortController().signal);
      await h.clock.advance(50);
      const explicit = await h.pipeline.complete({ ...line("a"), manual: true }, new AbortController().signal);
      assert.equal(explicit.kind, "error");
      await h.clock.advance(200);
      const outcome = await waiting;
      assert.deepEqual(outcome.kind === "backoff" && outcome.errorKind, "server");
      assert.equal(h.server.requests.length, 1, "only the explicit request was sent");
    });

    it("without a model setting, nothing is sent and the outcome says why", async () => {
      const h = harness(() => ({ chunks: ["x"] }), { model: " " });
      const outcome = await h.call({ ...line(""), manual: true });
      assert.equal(outcome.kind === "error" && outcome.errorKind, "no-model");
      assert.equal(h.server.requests.length, 0);
    });

    it("an unknown template setting is reported, not thrown", async () => {
      const h = harness(() => ({ chunks: ["x"] }), { template: "nope" });
      const outcome = await h.call({ ...line(""), manual: true });
      assert.equal(outcome.kind === "error" && outcome.errorKind, "unknown-template");
    });

    it("a model the server fills in the middle for itself gets the suffix on its own, not the family's tokens", async () => {
      const input = { ...inputAt("def f():\n    return █\n\nprint(f())"), manual: true };
      const own = harness(() => ({ chunks: ["1"] }), { serverFim: true });
      await own.call(input);
      assert.deepEqual([own.server.requests[0]?.prompt, own.server.requests[0]?.suffix], ["def f():\n    return ", "\n\nprint(f())"]);
      const family = harness(() => ({ chunks: ["1"] }));
      await family.call(input);
      assert.deepEqual([family.server.requests[0]?.prompt, family.server.requests[0]?.suffix], ["<|fim_prefix|>def f():\n    return <|fim_suffix|>\n\nprint(f())<|fim_middle|>", undefined]);
    });

    it("cancelling while the answer streams ends as cancelled", async () => {
      const h = harness(() => ({ chunks: ["a", "b", "c"], chunkDelayMs: 100 }));
      const pending = h.call(line(""));
      await h.clock.advance(250);
      h.cancel();
      const outcome = await pending;
      assert.equal(outcome.kind, "cancelled");
      assert.equal(outcome.latencyMs, 250);
    });
  });
});

function pick(outcome: CompletionOutcome) {
  return outcome.kind === "shown" ? { kind: outcome.kind, text: outcome.text, source: outcome.source } : { kind: outcome.kind };
}
