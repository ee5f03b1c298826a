import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { getLlama, LlamaCompletion, readGgufFileInfo } from "node-llama-cpp";

// The GPU run of .gpu/ rehearsed on the CPU at toy scale, end to end: prepare-coder.sh packs a small
// dataset (Python's standard library) and the bench's dev cases; train-coder.sh, as `run` calls it,
// is cut after its first step and returns a compact checkpoint in $OUT; a second call on a "fresh
// machine" (nothing left but what was carried: the pack less one shard, and that checkpoint) goes on
// to the end and evaluates; finish-coder.sh makes the GGUF, which llama.cpp loads and runs. Needs
// Debian's python3-torch (npm run train-model installs it); run with `npm run test:train`.
const PYTHON = process.env.WISP_PYTHON ?? "/usr/bin/python3";
const TOY = ["--embedding", "32", "--layers", "1", "--heads", "2", "--feed-forward", "64", "--context", "256", "--batch-tokens", "1024", "--warmup", "5", "--threads", "1", "--precision", "fp32", "--tokens", "8000"];

function sh(script: string, env: Record<string, string>, ...args: string[]): string {
  const run = spawnSync("bash", [script, ...args], { encoding: "utf8", env: { ...process.env, WISP_PYTHON: PYTHON, ...env } });
  assert.equal(run.status, 0, `${script} failed:\n${run.stdout}\n${run.stderr}`);
  return `${run.stdout}\n${run.stderr}`;
}

describe(".gpu: the GPU run of the next wisp-coder, rehearsed on the CPU", function () {
  this.timeout(900_000);
  let dir: string;
  let gpu: string;
  const device = { WISP_GPU_DEVICE: "cpu", WISP_GPU_MINUTES: "5" };
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "wisp-gpu-run-"));
    gpu = path.join(dir, "gpu");
    // The shipped model's tokenizer: no BPE to train for a rehearsal.
    const shipped = spawnSync("npx", ["tsx", "scripts/train/gguf-weights.ts", "--out", path.join(dir, "shipped")], { encoding: "utf8" });
    assert.equal(shipped.status, 0, shipped.stderr);
    sh(".gpu/prepare-coder.sh", {
      WISP_GPU_DIR: gpu,
      WISP_GPU_SOURCES: "python",
      WISP_GPU_DATASET_TOKENS: "60000",
      WISP_GPU_CONTEXT: "256",
      WISP_GPU_DEV_LIMIT: "12",
      WISP_GPU_PARAMS: "2e6",
      WISP_TRAIN_TOKENIZER: path.join(dir, "shipped", "tokenizer.json"),
    });
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("packs 8 token shards, the examples and the dev cases, within what a call takes along", () => {
    const files = readdirSync(path.join(gpu, "in")).sort();
    assert.deepEqual(files, ["dataset.json", "dev-cases.json.xz", "examples.bin.xz", ...Array.from({ length: 8 }, (_, k) => `tokens-${k}.bin.xz`), "tokenizer.json"].sort());
    const meta = JSON.parse(readFileSync(path.join(gpu, "in", "dataset.json"), "utf8")) as { tokens: number; shards: [number, number][] };
    assert.equal(meta.shards[0]![0], 0);
    assert.equal(meta.shards.at(-1)![1], meta.tokens);
    meta.shards.slice(1).forEach(([start], k) => assert.equal(start, meta.shards[k]![1], "shards follow one another"));
    // Each dev prompt holds the code around the cursor, not only the fill-in-the-middle tokens.
    const dev = JSON.parse(readFileSync(path.join(gpu, "dev-cases.json"), "utf8")) as { vocabulary: string[]; cases: { prompt: number[] }[] };
    assert.equal(dev.cases.length, 12);
    for (const c of dev.cases) {
      const text = Buffer.concat(c.prompt.map((t) => Buffer.from(dev.vocabulary[t]!, "hex"))).toString("utf8");
      assert.ok(text.trim().length >= 40 && text.includes("\n"), `a dev prompt of ${c.prompt.length} tokens reads ${JSON.stringify(text)}`);
    }
  });

  it("is cut, resumed on a fresh machine from what came back, evaluated on dev, and exported to a GGUF llama.cpp runs", async () => {
    const first = path.join(dir, "out-1");
    // Cut after its first step, as a call killed at its limit is, past its last checkpoint.
    const cut = sh(".gpu/train-coder.sh", { ...device, WISP_GPU_DIR: gpu, OUT: first }, ...TOY, "--minutes", "0.000001");
    assert.match(cut, /stopped after 1e-06 min at step 1/);
    assert.match(cut, /dev half, server: \d+ of \d+ exact/);
    const returned = readdirSync(first).sort();
    assert.ok(returned.length <= 8, `${returned.length} files come back, at most 8 may`);
    assert.deepEqual(returned, ["dev-eval.json", "state.json", "train.log", "weights-0.q8"]);

    // A fresh machine: the run folder is gone; the checkpoint travels in place of the last shard.
    rmSync(path.join(gpu, "run"), { recursive: true, force: true });
    rmSync(path.join(gpu, "unpacked"), { recursive: true, force: true });
    rmSync(path.join(gpu, "in", "tokens-7.bin.xz"));
    mkdirSync(path.join(gpu, "in", "resume"));
    for (const file of ["state.json", "weights-0.q8"]) copyFileSync(path.join(first, file), path.join(gpu, "in", "resume", file));
    const second = path.join(dir, "out-2");
    const resumed = sh(".gpu/train-coder.sh", { ...device, WISP_GPU_DIR: gpu, OUT: second }, ...TOY);
    assert.match(resumed, /unpack: 7 of 8 shards/);
    assert.match(resumed, /going on from .*resume \(compact\) to 8000 tokens/);
    assert.match(resumed, /resumed from .*resume\/state\.json: step 1, /);
    assert.match(resumed, /done: \d+ steps/);
    const state = JSON.parse(readFileSync(path.join(second, "state.json"), "utf8")) as { state: { seen: number; tokens: number } };
    assert.ok(state.state.seen >= 8000, `trained to the end: ${state.state.seen} tokens`);
    const evaluated = JSON.parse(readFileSync(path.join(second, "dev-eval.json"), "utf8")) as { split: string; server: { all: { cases: number; exact: number } }; answers: unknown[] };
    assert.equal(evaluated.split, "dev");
    assert.equal(evaluated.server.all.cases, 12);
    assert.equal(evaluated.answers.length, 12);

    sh(".gpu/finish-coder.sh", { WISP_GPU_DIR: gpu, WISP_GPU_BENCH: "0" }, second);
    const gguf = path.join(gpu, "wisp-coder-next.gguf");
    assert.ok(existsSync(gguf));
    // The GGUF holds exactly the q8_0 blocks the run returned.
    const info = await readGgufFileInfo(gguf, { sourceType: "filesystem", readTensorInfo: true, logWarnings: false });
    const compact = JSON.parse(readFileSync(path.join(second, "state.json"), "utf8")) as { tensors: { name: string; part: number; offset: number; bytes: number }[] };
    const query = compact.tensors.find((t) => t.name === "blk.0.attn_q.weight")!;
    const inGguf = info.tensorInfo!.find((t) => t.name === query.name)!;
    const start = Number(inGguf.fileOffset);
    assert.ok(readFileSync(gguf).subarray(start, start + query.bytes).equals(readFileSync(path.join(second, `weights-${query.part}.q8`)).subarray(query.offset, query.offset + query.bytes)));
    const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
    try {
      const model = await llama.loadModel({ modelPath: gguf });
      const context = await model.createContext({ contextSize: 256 });
      // It runs (what a toy model writes is its own affair), with the dataset's vocabulary.
      const vocabSize = (JSON.parse(readFileSync(path.join(gpu, "in", "dataset.json"), "utf8")) as { vocabSize: number }).vocabSize;
      assert.equal(model.fileInfo.metadata.tokenizer.ggml.tokens.length, vocabSize);
      const text = await new LlamaCompletion({ contextSequence: context.getSequence() }).generateCompletion("def add(a, b):\n    return ", { maxTokens: 4 });
      assert.equal(typeof text, "string");
      await context.dispose();
      await model.dispose();
    } finally {
      await llama.dispose();
    }
  });
});
