// Pins a benchmarked server to one CPU. On the shared VMs these benches run on, the same decode loop
// ran 1.5x as fast on one vCPU as on the other (llama-bench: 660 against 438 tokens/s), steadily
// for as long as a process stayed put: servers compared unpinned measured mostly where the
// scheduler happened to put each one. Both sides on the same CPU compare the engines.
import { spawnSync } from "node:child_process";
import { availableParallelism } from "node:os";

export interface CpuPin {
  /** Command prefix for spawn: `taskset -c N`, or nothing. */
  readonly prefix: readonly string[];
  /** For the table's title: where the servers ran. */
  readonly note: string;
}

/**
 * `setting` from ENGINE_BENCH_CPU (default 0): a CPU number or a comma-separated list of them
 * (servers running several threads get as many CPUs); "none" leaves the scheduler to it.
 */
export function cpuPin(setting = process.env.ENGINE_BENCH_CPU ?? "0"): CpuPin {
  if (setting === "none") return { prefix: [], note: "not pinned to a CPU" };
  const cpus = setting.split(",").map(Number);
  if (cpus.some((cpu) => !Number.isInteger(cpu) || cpu < 0 || cpu >= availableParallelism())) throw new Error(`ENGINE_BENCH_CPU must list CPU numbers below ${availableParallelism()} or be "none", got '${setting}'`);
  const list = cpus.join(",");
  if (spawnSync("taskset", ["-c", list, "true"], { stdio: "ignore" }).status !== 0) return { prefix: [], note: "not pinned (no taskset)" };
  return { prefix: ["taskset", "-c", list], note: `both servers on CPU${cpus.length > 1 ? "s" : ""} ${list}` };
}

/** spawn()'s command and arguments with the pin in front. */
export function pinnedCommand(pin: CpuPin | undefined, command: string, args: readonly string[]): [string, string[]] {
  if (!pin || pin.prefix.length === 0) return [command, [...args]];
  const [first, ...rest] = pin.prefix;
  return [first!, [...rest, command, ...args]];
}
