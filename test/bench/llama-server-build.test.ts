// The llama-server benches' first step, as on a fresh clone: bench/engine/build-llama-server.sh
// builds llama.cpp's llama-server from the source node-llama-cpp ships, into an empty cache, and
// the binary answers /v1/completions on a tiny model.
// Not part of `npm test` for its cost (8-16 minutes on 2 cores): `npm run test:bench-models`.
import assert from "node:assert/strict";
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { startLlamaServer } from "../../bench/engine/llama-server";
import { TempDirs } from "../harness/temp-dirs";
import { repoRoot } from "../harness/toolchain";

const script = path.join(repoRoot, "bench/engine/build-llama-server.sh");

/** The build under way, in its own process group: stopped with everything it started if the test ends first. */
let running: ChildProcess | undefined;

/** Runs the build script with `cache` as its cache; its exit status, the binary it printed, its log's tail. */
function build(cache: string): Promise<{ status: number | null; binary: string; errors: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", [script], { env: { ...process.env, WISP_BENCH_CACHE: cache }, stdio: ["ignore", "pipe", "pipe"], detached: true });
    running = child;
    let stdout = "";
    let errors = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (errors += d.toString()));
    child.once("error", reject);
    child.once("close", (status) => {
      running = undefined;
      resolve({ status, binary: stdout.trim().split("\n").at(-1) ?? "", errors });
    });
  });
}

describe("llama-server for the benches, built from a clean cache", function () {
  // 8-16 minutes on 2 cores of their own; over an hour where other builds share them.
  this.timeout(4 * 3_600_000);
  const temp = new TempDirs();
  after(() => {
    try {
      if (running?.pid !== undefined && running.exitCode === null) process.kill(-running.pid, "SIGKILL");
    } catch {
      // Already gone.
    }
    temp.removeAll();
  });

  it("builds with build-llama-server.sh, and the binary answers /v1/completions", async () => {
    const cache = temp.make("llama-server-build");
    const started = performance.now();
    const { status, binary, errors } = await build(cache);
    assert.equal(status, 0, errors);
    console.log(`    built ${binary} in ${Math.round((performance.now() - started) / 1000)} s`);
    assert.ok(binary.startsWith(cache), binary);
    const again = await build(cache);
    assert.deepEqual([again.status, again.binary], [0, binary], "a second call finds the cached binary");
    const server = await startLlamaServer(binary, path.join(repoRoot, "models/wisp-coder.gguf"), { threads: 1, contextSize: 512 });
    try {
      const response = await fetch(`${server.baseUrl}/completions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ prompt: "def add(a, b):\n    return", max_tokens: 8, temperature: 0 }),
      });
      assert.equal(response.status, 200);
      const answer = (await response.json()) as { choices: { text: string }[]; usage: { completion_tokens: number } };
      assert.equal(answer.usage.completion_tokens, 8);
      assert.ok(answer.choices[0]!.text.length > 0);
    } finally {
      await server.stop();
    }
  });
});
