import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { DEFAULT_TEXT_MODEL_FILE, ensureDefaultModels } from "../../src/server/engines/default-models";
import { ModelRegistry } from "../../src/server/models/registry";
import { buildTinyLlamaGguf, CHATML_TEMPLATE } from "../../src/server/models/tiny-llama";

const ggufFiles = async (dir: string) => (await readdir(dir)).filter((n) => n.endsWith(".gguf"));
const digest = (chunks: Uint8Array[]) => chunks.reduce((h, c) => h.update(c), createHash("sha256")).digest("hex");

describe("the generated default model", function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "wisp-models-test-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it("is deterministic: the same bytes every time", () => {
    assert.equal(digest(buildTinyLlamaGguf("tiny")), digest(buildTinyLlamaGguf("tiny")));
    assert.notEqual(digest(buildTinyLlamaGguf("tiny")), digest(buildTinyLlamaGguf("tiny", { fim: false })));
  });

  it("is generated on first start into an empty models dir, with ChatML, FIM and end tokens", async () => {
    const lines: string[] = [];
    await ensureDefaultModels(dir, (line) => lines.push(line));
    assert.deepEqual(await ggufFiles(dir), [DEFAULT_TEXT_MODEL_FILE]);
    assert.match(lines.join("\n"), /generating the default/);
    const info = await readGgufFileInfo(path.join(dir, DEFAULT_TEXT_MODEL_FILE));
    const tokenizer = info.metadata.tokenizer;
    assert.equal(info.metadata.general.architecture, "llama");
    assert.equal(tokenizer.ggml.model, "gpt2");
    assert.equal(tokenizer.chat_template, CHATML_TEMPLATE);
    const tokens = tokenizer.ggml.tokens;
    assert.equal(tokens[tokenizer.ggml.eos_token_id!], "<|endoftext|>");
    assert.equal(tokens[tokenizer.ggml.eot_token_id!], "<|im_end|>");
    assert.equal(tokens[tokenizer.ggml.fim_pre_token_id!], "<|fim_prefix|>");
    assert.equal(tokens[tokenizer.ggml.fim_mid_token_id!], "<|fim_middle|>");
    assert.equal(tokens[tokenizer.ggml.fim_suf_token_id!], "<|fim_suffix|>");
    assert.ok((tokenizer.ggml.merges ?? []).length > 100, "the BPE learned merges from the built-in text");
  });

  it("is not generated when the models dir already has a GGUF, and the registry lists what is there", async () => {
    await writeFile(path.join(dir, "mine.gguf"), "");
    await ensureDefaultModels(dir, () => undefined);
    assert.deepEqual(await ggufFiles(dir), ["mine.gguf"]);
    const registry = new ModelRegistry(dir);
    await registry.scan();
    assert.deepEqual(registry.list("text").map((m) => [m.id, m.path]), [["mine", path.join(dir, "mine.gguf")]]);
  });
});
