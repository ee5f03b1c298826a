// Runs a benchmark's suites inside the real VS Code extension host and hands back what they measured.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TempDirs } from "../test/harness/temp-dirs";
import { repoRoot } from "../test/harness/toolchain";

/**
 * Runs the suites of `suitesDir` (relative to the repository) with test/harness/run-vscode-tests.mjs
 * and returns the JSON they wrote to the file named by WISP_BENCH_OUT; throws, with the run's
 * output, when a suite failed.
 */
export function runVscodeBench<T>(suitesDir: string): T {
  const temp = new TempDirs();
  try {
    const out = join(temp.make("vscode-bench"), "result.json");
    const run = spawnSync("node", ["test/harness/run-vscode-tests.mjs"], {
      cwd: repoRoot,
      stdio: ["ignore", "pipe", "inherit"],
      encoding: "utf8",
      env: { ...process.env, WISP_VSCODE_SUITES: suitesDir, WISP_BENCH_OUT: out },
    });
    if (run.status !== 0) {
      process.stdout.write(run.stdout);
      throw new Error(`the benchmark run in VS Code failed (exit ${run.status})`);
    }
    return JSON.parse(readFileSync(out, "utf8")) as T;
  } finally {
    temp.removeAll();
  }
}
