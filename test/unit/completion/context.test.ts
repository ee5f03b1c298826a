import assert from "node:assert/strict";
import { buildPrompt, defaultBudget, prefixWindow, suffixWindow, type ContextBudget } from "../../../src/core/completion/context";
import { ContextRing, type ContextChunk, type LineSource } from "../../../src/core/completion/context-ring";
import { splitHalves } from "../../../src/core/base/surrogates";
import { selectTemplate } from "../../../src/core/completion/templates";
import { inputAt } from "./input-at";
import { wellFormed } from "../../harness/well-formed";

const budget: ContextBudget = { prefixChars: 2000, suffixChars: 300, extraChars: 400, prefixStep: 512, dropLeadingClosers: true };
const source = Array.from({ length: 400 }, (_, i) => `const value${i} = compute(${i}, "item ${i}");`).join("\n") + "\n";

function lines(text: string): LineSource {
  const all = text.split("\n");
  return { lineCount: all.length, lineText: (i) => all[i] ?? "" };
}

function chunk(uri: string, startLine: number, text: string): ContextChunk {
  return { uri, path: uri.replace("file:///", ""), startLine, endLine: startLine + text.split("\n").length, text };
}

describe("completion context", () => {
  it("keeps the prefix within budget, starting at a line start", () => {
    const window = prefixWindow(source, 0, budget);
    assert.ok(window.length <= budget.prefixChars && window.length > budget.prefixChars - budget.prefixStep - 80);
    assert.ok(source.endsWith(window));
    assert.equal(source[source.length - window.length - 1], "\n");
  });

  it("consecutive keystrokes share the whole prompt up to the previous cursor", () => {
    const typed = "const total = values.reduce((sum, v) => sum + v, 0);\nconsole.log(total);\n".repeat(4);
    const template = selectTemplate("qwen", "");
    let previous = "";
    let starts = 0;
    for (let i = 0; i <= typed.length; i++) {
      const prompt = buildPrompt(template, inputAt(source + typed.slice(0, i) + "█\n}\n"), [], budget).prompt;
      const previousPrefix = previous.slice(0, previous.indexOf("<|fim_suffix|>"));
      if (!prompt.startsWith(previousPrefix)) starts++;
      previous = prompt;
    }
    // The window start moves once per prefixStep characters typed, not on every key.
    assert.ok(starts <= Math.ceil(typed.length / budget.prefixStep) + 1, `${starts} restarts over ${typed.length} keys`);
  });

  it("the window depends on document offsets, not on how much text the caller passed", () => {
    const full = prefixWindow(source, 0, budget);
    const tail = source.slice(3000);
    assert.equal(prefixWindow(tail, 3000, budget), full);
  });

  it("cuts the suffix at a line end", () => {
    const suffix = suffixWindow(source, budget);
    assert.ok(suffix.length <= budget.suffixChars);
    assert.ok(source.startsWith(suffix + "\n"));
  });

  it("never cuts an emoji in half (llama.cpp rejects a lone surrogate)", () => {
    // One long line (no line end to cut at): each offset puts the budget's cut somewhere else around the emoji.
    for (let pad = 0; pad < 12; pad++) {
      const suffix = `, ${"x".repeat(budget.suffixChars - 4 + pad)}😀 rest`;
      const window = suffixWindow(suffix, budget);
      assert.ok(wellFormed(window), `suffix pad ${pad}: ${JSON.stringify(window.slice(-2))}`);
      assert.ok(suffix.startsWith(window) && window.length >= budget.suffixChars - 1);
      const prefix = `${"x".repeat(pad)}const messages = [${"'🎉 party', ".repeat(400)}`;
      const start = prefixWindow(prefix, 0, budget);
      assert.ok(wellFormed(start), `prefix pad ${pad}: ${JSON.stringify(start.slice(0, 2))}`);
      assert.ok(prefix.endsWith(start));
    }
    // What the editor adapter drops from text cut out of a document at arbitrary offsets.
    assert.deepEqual(splitHalves("\uDE00 ok 😀"), { start: 1, end: 0 });
    assert.deepEqual(splitHalves("ok \uD83D"), { start: 0, end: 1 });
    assert.deepEqual(splitHalves("😀 ok 😀"), { start: 0, end: 0 });
  });

  it("leaves out the closers after the cursor, so that the editor inserting, moving or typing over one changes no prompt", () => {
    const rest = "\n\nexport const next = 1;\n";
    const docs = [`return scale(█\n}${rest}`, `return scale(█)\n}${rest}`, `log(f("█")\n}${rest}`, `f() {█}\n}${rest}`, `f() {\n  █\n}\n}${rest}`];
    const prompts = docs.map((doc) => buildPrompt(selectTemplate("server", ""), inputAt(doc), [], budget));
    assert.deepEqual(prompts.map((p) => p.suffix), docs.map(() => rest));
    assert.equal(suffixWindow(").then(done);\n}\n", budget), ".then(done);\n}\n", "only the closers right after the cursor");
    assert.equal(suffixWindow("\n  });\n  x();\n}\n", budget), "\n  x();\n}\n");
    assert.equal(suffixWindow(")\n}\n", { ...budget, dropLeadingClosers: false }), ")\n}\n");
  });

  it("lays extra chunks out with the family's file separators", () => {
    const chunks = [chunk("file:///lib/util.ts", 0, "export const twice = (x: number) => 2 * x;")];
    const prompt = buildPrompt(selectTemplate("qwen", ""), inputAt("twi█", { workspace: "demo" }), chunks, budget);
    assert.equal(
      prompt.prompt,
      "<|repo_name|>demo\n<|file_sep|>lib/util.ts\nexport const twice = (x: number) => 2 * x;\n<|file_sep|>src/a.ts\n<|fim_prefix|>twi<|fim_suffix|><|fim_middle|>",
    );
  });

  it("writes extra chunks as comments where the family has no file tokens", () => {
    const chunks = [chunk("file:///lib/util.py", 0, "def twice(x):\n    return 2 * x")];
    const input = inputAt("tw█", { languageId: "python", path: "main.py" });
    const prompt = buildPrompt(selectTemplate("codellama", ""), input, chunks, budget);
    assert.equal(prompt.prompt, "<PRE> # Path: lib/util.py\n# def twice(x):\n#     return 2 * x\n# Path: main.py\ntw <SUF> <MID>");
    const unknown = buildPrompt(selectTemplate("codellama", ""), { ...input, languageId: "plaintext" }, chunks, budget);
    assert.equal(unknown.prompt, "<PRE> tw <SUF> <MID>");
  });
});

describe("context ring", () => {
  it("is bounded and keeps the newest chunks", () => {
    const ring = new ContextRing({ maxChunks: 3 });
    for (let i = 0; i < 5; i++) ring.add(chunk(`file:///f${i}.ts`, 0, `export function f${i}() { return ${i} * 1000; }`));
    assert.equal(ring.size, 3);
    assert.deepEqual(ring.chunksFor("file:///other.ts", 10_000).map((c) => c.uri), ["file:///f2.ts", "file:///f3.ts", "file:///f4.ts"]);
  });

  it("replaces an overlapping chunk of the same file and drops near-duplicates", () => {
    const ring = new ContextRing();
    const doc = lines(source);
    ring.addAround("file:///a.ts", "a.ts", doc, 100);
    ring.addAround("file:///a.ts", "a.ts", doc, 105);
    assert.equal(ring.size, 1);
    const [only] = ring.chunksFor("file:///b.ts", 10_000);
    assert.ok(only?.text.includes("value105"));
    ring.addAround("file:///copy.ts", "copy.ts", doc, 105);
    assert.equal(ring.size, 1, "the same lines from another file are not kept twice");
  });

  it("skips the current file, fits the budget, and ignores blank chunks", () => {
    const ring = new ContextRing();
    ring.add(chunk("file:///a.ts", 0, "x".repeat(300)));
    ring.add(chunk("file:///b.ts", 0, "y".repeat(300)));
    ring.add(chunk("file:///c.ts", 0, "   \n\n  "));
    assert.deepEqual(ring.chunksFor("file:///b.ts", 400).map((c) => c.uri), ["file:///a.ts"]);
    assert.deepEqual(ring.chunksFor("file:///z.ts", 400).map((c) => c.uri), ["file:///b.ts"]);
    ring.forget("file:///a.ts");
    assert.equal(ring.size, 1);
  });

  it("forgetting a deleted folder drops the chunks of the files under it, not of a file whose name starts the same", () => {
    const ring = new ContextRing();
    ring.add(chunk("file:///w/src/a.ts", 0, "export const alpha = 1;"));
    ring.add(chunk("file:///w/src/deep/b.ts", 0, "export const beta = 2;"));
    ring.add(chunk("file:///w/src-old.ts", 0, "export const gamma = 3;"));
    ring.forget("file:///w/src");
    assert.deepEqual(ring.chunksFor("file:///w/z.ts", 10_000).map((c) => c.uri), ["file:///w/src-old.ts"]);
  });

  it("a minified file's line is cut: the chunks of the files opened before it still go with completions (its 5 MB chunk left out every file)", () => {
    const ring = new ContextRing();
    ring.addAround("file:///lib.ts", "lib.ts", lines("export function twice(x: number) {\n  return 2 * x;\n}\n"), 1);
    const bundle = `!function(){${"var a=1;".repeat(600_000)}}();`;
    ring.addAround("file:///vendor.min.js", "vendor.min.js", { lineCount: 1, lineText: () => bundle }, 0);
    const sent = ring.chunksFor("file:///main.ts", defaultBudget.extraChars);
    assert.deepEqual(sent.map((c) => c.path), ["lib.ts", "vendor.min.js"]);
    assert.ok(sent[1]!.text.length <= 400 && bundle.startsWith(sent[1]!.text), `the bundle's line is cut to its start (${sent[1]!.text.length} characters)`);
  });

  it("a chunk of long lines is shortened around the line it was taken at, to fit the extra context (it was never sent)", () => {
    const ring = new ContextRing();
    const prose = Array.from({ length: 60 }, (_, i) => `Line ${i}: ${"the quick brown fox jumps over the lazy dog ".repeat(3)}`).join("\n");
    ring.addAround("file:///README.md", "README.md", lines(prose), 30);
    const [only] = ring.chunksFor("file:///main.ts", defaultBudget.extraChars);
    assert.ok(only, "the chunk is sent");
    assert.ok(only.text.length <= defaultBudget.extraChars);
    assert.ok(only.text.includes("Line 30:") && only.startLine < 30 && only.endLine > 31, `around line 30 (lines ${only.startLine}-${only.endLine})`);
    assert.equal(only.text.split("\n").length, only.endLine - only.startLine);
    assert.ok(only.text.startsWith(`Line ${only.startLine}:`));
  });

  it("does not change the extra context while the user types in the current file", () => {
    const ring = new ContextRing();
    ring.add(chunk("file:///lib.ts", 0, "export const answer = 42; // the answer"));
    const before = ring.chunksFor("file:///main.ts", defaultBudget.extraChars);
    ring.addAround("file:///main.ts", "main.ts", lines(source), 10);
    ring.addAround("file:///main.ts", "main.ts", lines(source), 11);
    assert.deepEqual(ring.chunksFor("file:///main.ts", defaultBudget.extraChars), before);
  });
});
