import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

// scripts/train/train.py stopped and resumed: the same weights as one run straight through. Needs
// Debian's python3-torch (npm run train-model installs it); run with `npm run test:train`.
const PYTHON = process.env.WISP_PYTHON ?? "/usr/bin/python3";
const TRAIN = path.resolve("scripts/train/train.py");
const TINY = ["--embedding", "16", "--layers", "1", "--heads", "2", "--feed-forward", "32", "--context", "64", "--batch-tokens", "256", "--tokens", "6000", "--warmup", "5", "--threads", "1", "--precision", "fp32"];

/** A dataset as build-dataset.ts writes it: random tokens cut into examples of 20-60 tokens. */
function writeDataset(dir: string): void {
  const vocab = 50;
  const tokens = new Uint16Array(20_000);
  let state = 7;
  for (let i = 0; i < tokens.length; i++) tokens[i] = (state = (state * 1103515245 + 12345) >>> 0) % vocab;
  const examples: number[] = [];
  for (let offset = 0; offset + 60 < tokens.length; ) {
    const length = 20 + (offset % 41);
    examples.push(offset, length, 1, Math.floor(length / 2));
    offset += length;
  }
  writeFileSync(path.join(dir, "tokens.bin"), Buffer.from(tokens.buffer));
  writeFileSync(path.join(dir, "examples.bin"), Buffer.from(Int32Array.from(examples).buffer));
  writeFileSync(path.join(dir, "dataset.json"), JSON.stringify({ vocabSize: vocab, padTokenId: 0, exampleFields: 4 }));
}

function train(data: string, out: string, ...more: string[]): string {
  const run = spawnSync(PYTHON, ["-u", TRAIN, "--data", data, "--out", out, ...TINY, ...more], { encoding: "utf8" });
  assert.equal(run.status, 0, `train.py failed:\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

describe("train.py: runs stopped and resumed, fitted to minutes, started from earlier weights", function () {
  this.timeout(300_000);
  let dir: string;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), "wisp-train-"));
    writeDataset(dir);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("ends with exactly the weights of a run straight through", () => {
    const straight = path.join(dir, "straight");
    train(dir, straight);
    const split = path.join(dir, "split");
    // Any time at all has passed after the first step: the run stops there, checkpointed.
    const first = train(dir, split, "--minutes", "0.000001");
    assert.match(first, /stopped after 1e-06 min at step 1, [\d,]+ of 6,000 tokens: --resume goes on from here/);
    const second = train(dir, split, "--resume");
    assert.match(second, /resumed from .*checkpoint\.pt: step 1, /);
    assert.match(second, /done: \d+ steps/);
    assert.ok(readFileSync(path.join(straight, "weights.bin")).equals(readFileSync(path.join(split, "weights.bin"))), "the same weights");
  });

  it("--fit-minutes lowers --tokens to what fits in the minutes, measured over steps 20 to 120", () => {
    // No time is left after step 120 of a run fitted to a millionth of a minute: it ends there.
    const log = train(dir, path.join(dir, "fitted"), "--tokens", "60000", "--fit-minutes", "0.000001");
    const fitted = /--fit-minutes 1e-06: training on ([\d,]+) tokens/.exec(log);
    assert.ok(fitted, log);
    const done = /done: (\d+) steps, ([\d,]+) tokens/.exec(log)!;
    assert.equal(done[1], "120");
    assert.equal(done[2], fitted[1]);
  });

  it("--init starts from an earlier run's weights, and refuses another shape's", () => {
    const earlier = path.join(dir, "earlier");
    train(dir, earlier);
    // At a learning rate of 0 nothing moves: the weights written are the ones read.
    const log = train(dir, path.join(dir, "continued"), "--init", earlier, "--lr", "0");
    assert.match(log, /weights from .*earlier/);
    assert.ok(readFileSync(path.join(dir, "continued", "weights.bin")).equals(readFileSync(path.join(earlier, "weights.bin"))), "the earlier run's weights");
    const fresh = train(dir, path.join(dir, "fresh"), "--lr", "0");
    assert.doesNotMatch(fresh, /weights from/);
    assert.ok(!readFileSync(path.join(dir, "fresh", "weights.bin")).equals(readFileSync(path.join(earlier, "weights.bin"))), "random weights without --init");
    const other = spawnSync(PYTHON, [TRAIN, "--data", dir, "--out", path.join(dir, "wider"), ...TINY, "--embedding", "32", "--init", earlier], { encoding: "utf8" });
    assert.notEqual(other.status, 0);
    assert.match(other.stderr, /weights\.json is of another model or vocabulary \(\{'embedding': 16.*this run: \{'embedding': 32/);
  });

  it("refuses a checkpoint of another model shape, saying what differs", () => {
    const out = path.join(dir, "other");
    train(dir, out, "--minutes", "0.000001");
    const run = spawnSync(PYTHON, [TRAIN, "--data", dir, "--out", out, ...TINY, "--embedding", "32", "--resume"], { encoding: "utf8" });
    assert.notEqual(run.status, 0);
    assert.match(run.stderr, /checkpoint\.pt is of another model or dataset \(.*'embedding': 16.*this run: .*'embedding': 32/);
  });
});
