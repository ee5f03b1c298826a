import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { LlamaModel } from "node-llama-cpp";
import { suffixMiddlePrefix } from "../../scripts/train/fim-examples";
import { TextEngine } from "../../src/server/engines/text/text-engine";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";

// The trained model sees in training exactly what the server feeds it: a training example of
// the suffix-middle-prefix layout is the server's prompt for that cursor, then the middle.
describe("fill-in-the-middle: the training examples' layout is the server's prompt", function () {
  this.timeout(60_000);
  const dir = mkdtempSync(path.join(tmpdir(), "wisp-fim-layout-"));
  const file = path.join(dir, "smp.gguf");
  const engine = new TextEngine({ threads: 1, parallel: 1, contextSize: 1024, maxQueue: 4, prefixReuse: true });
  let model: LlamaModel;
  before(async () => {
    await writeTinyLlamaGguf(file, "tiny", { fimLayout: "suffix-middle-prefix" });
    model = await engine.model("smp", file);
  });
  after(async () => {
    await engine.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it("the server's prompt, then the middle's tokens and the end token", () => {
    const prefix = "export function area(r: number): number {\n  return ";
    const middle = "Math.PI * r * r;";
    const suffix = "\n}\n";
    const special = (t: string) => model.tokenize(t, true)[0]!;
    const ids = { prefix: special("<|fim_prefix|>"), suffix: special("<|fim_suffix|>"), middle: special("<|fim_middle|>"), end: special("<|endoftext|>") };
    const tokens = (text: string) => [...model.tokenize(text, false)] as number[];
    const example = suffixMiddlePrefix({ prefix: tokens(prefix), suffix: tokens(suffix), middle: tokens(middle) }, ids);
    const prompt = engine.infillPrompt(model, prefix, suffix) as number[];
    assert.deepEqual(example.ids.slice(0, example.middleFrom), prompt);
    assert.equal(model.detokenize(example.ids.slice(example.middleFrom, -1) as never), middle);
    assert.equal(example.ids.at(-1), ids.end);
  });
});
