import assert from "node:assert/strict";
import { CompletionPipeline } from "../../../src/core/completion/pipeline";
import type { CompletionInput, CompletionOutcome, CompletionSettings } from "../../../src/core/completion/types";
import { AutoClosingEditor } from "../../harness/auto-closing-editor";
import { FakeClock } from "./fake-clock";
import { FakeServer, type FakeReply } from "./fake-server";

const settings: CompletionSettings = { model: "wisp-tiny", template: "auto", maxTokens: 64, debounceMs: 100 };

/** The pipeline driven by an editor that auto-closes brackets and quotes, as VS Code does by default. */
function session(doc: string, reply: () => FakeReply) {
  const at = doc.indexOf("█");
  const editor = new AutoClosingEditor(doc.replace("█", ""), at);
  const clock = new FakeClock();
  const server = new FakeServer(reply, clock);
  const pipeline = new CompletionPipeline({ stream: server.stream, settings: () => settings, clock });
  let current: AbortController | undefined;
  const input = (): CompletionInput => ({
    uri: "file:///work/a.ts",
    path: "a.ts",
    languageId: "typescript",
    prefix: editor.prefix,
    prefixOffset: 0,
    suffix: editor.suffix,
    indent: { insertSpaces: true, tabSize: 2 },
    manual: false,
  });
  /** A keystroke, then VS Code's provider call (which cancels the previous one). */
  const key = (ch: string): Promise<CompletionOutcome> => {
    editor.type(ch);
    current?.abort();
    current = new AbortController();
    return pipeline.complete(input(), current.signal);
  };
  const ask = () => {
    current = new AbortController();
    return pipeline.complete(input(), current.signal);
  };
  return { editor, clock, server, key, ask };
}

const shown = (o: CompletionOutcome) => (o.kind === "shown" ? { text: o.text, replace: o.replace, source: o.source } : { kind: o.kind });

describe("completion with the editor's auto-closing", () => {
  it("typing a suggestion's `(` (the editor adds `)`) keeps the rest shown, over the `)`, with no request", async () => {
    const s = session("function f(items: Item[]) {\n  const tax = █\n}\n", () => ({ chunks: ["Math.round(subtotal(items) * 0.2);"] }));
    const first = s.ask();
    await s.clock.advance(200);
    assert.deepEqual(shown(await first), { text: "Math.round(subtotal(items) * 0.2);", replace: 0, source: "network" });
    let last: CompletionOutcome | undefined;
    for (const ch of "Math.round(") last = await s.key(ch);
    assert.equal(s.editor.suffix.slice(0, 2), ")\n", "the editor auto-closed the bracket");
    assert.deepEqual(shown(last!), { text: "subtotal(items) * 0.2);", replace: 1, source: "type-through" });
    assert.equal(s.server.requests.length, 1);
    s.editor.accept((last as { text: string }).text, 1);
    assert.equal(s.editor.text, "function f(items: Item[]) {\n  const tax = Math.round(subtotal(items) * 0.2);\n}\n");
  });

  it("typing on through the suggestion's own closers (typed over) and quotes", async () => {
    const s = session("const label = █\n", () => ({ chunks: ['format("total", sum(a, b));'] }));
    const first = s.ask();
    await s.clock.advance(200);
    await first;
    const expected: Array<[string, string, number]> = [
      ["format(", '"total", sum(a, b));', 1],
      ['"', 'total", sum(a, b));', 2], // the editor made it `("|")`
      ['total"', ", sum(a, b));", 1], // `"` typed over
      [", sum(", "a, b));", 2],
      ["a, b)", ");", 1],
    ];
    for (const [typed, text, replace] of expected) {
      let last: CompletionOutcome | undefined;
      for (const ch of typed) last = await s.key(ch);
      assert.deepEqual(shown(last!), { text, replace, source: "type-through" }, `after ${typed}`);
    }
    assert.equal(s.server.requests.length, 1);
  });

  it("typing over an auto-inserted closer that the suggestion replaces keeps the rest shown", async () => {
    const s = session("function f(total: number, factor: number) {\n  return scale█\n}\n", () => ({ chunks: ["total, factor);"] }));
    s.editor.type("(");
    const first = s.ask();
    await s.clock.advance(200);
    assert.deepEqual(shown(await first), { text: "total, factor);", replace: 1, source: "network" });
    let last: CompletionOutcome | undefined;
    for (const ch of "total, factor") last = await s.key(ch);
    assert.deepEqual(shown(last!), { text: ");", replace: 1, source: "type-through" });
    last = await s.key(")");
    assert.equal(s.editor.suffix, "\n}\n", "the `)` was typed over");
    assert.deepEqual(shown(last), { text: ";", replace: 0, source: "type-through" });
    assert.equal(s.server.requests.length, 1);
  });

  it("an opener typed from a suggestion that never closes it: the rest shows before the editor's closer", async () => {
    const s = session("const list = █\n", () => ({ chunks: ["[first, second"] }));
    const first = s.ask();
    await s.clock.advance(200);
    await first;
    const last = await s.key("[");
    assert.deepEqual(shown(last), { text: "first, second", replace: 0, source: "type-through" });
    assert.equal(s.server.requests.length, 1);
  });

  it("a running request is joined when typing its prediction makes the editor insert a closer", async () => {
    const s = session("const tax = █\n", () => ({ chunks: ["Math.round(", "x * 0.2);"], chunkDelayMs: 100 }));
    void s.ask();
    await s.clock.advance(150); // sent at 33 (between words), "Math.round(" streamed at 133, the rest comes at 233
    const outcomes: Array<Promise<CompletionOutcome>> = [];
    for (const ch of "Math.round(") outcomes.push(s.key(ch));
    await s.clock.advance(1000);
    assert.deepEqual(shown((await Promise.all(outcomes)).at(-1)!), { text: "x * 0.2);", replace: 1, source: "reused" });
    assert.equal(s.server.requests.length, 1);
  });

  it("Enter between auto-closed braces: the body goes on the new line, the `}` stays below", async () => {
    const s = session("export function average(values: number[]): number █\n", () => ({
      chunks: ["if (values.length === 0) {\n    return 0;\n  }\n  return sum(values) / values.length;\n}\n"],
    }));
    s.editor.type("{");
    s.editor.enter("\n  ");
    assert.equal(s.editor.text, "export function average(values: number[]): number {\n  \n}\n");
    const outcome = s.ask();
    await s.clock.advance(200);
    const o = await outcome;
    assert.equal(o.kind, "shown");
    s.editor.accept((o as { text: string }).text, 0);
    assert.equal(s.editor.text, "export function average(values: number[]): number {\n  if (values.length === 0) {\n    return 0;\n  }\n  return sum(values) / values.length;\n}\n");
  });
});
