import { readdirSync, readFileSync } from "node:fs";

/**
 * Pids of the live processes whose environment holds `NAME=value`: a run started with a unique
 * marker variable can then prove that nothing it started outlives it (Linux /proc).
 */
export function markedProcesses(name: string, value: string): number[] {
  const needle = `${name}=${value}\0`;
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(needle)) pids.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return pids;
}

/** SIGTERM to every marked process, SIGKILL to those still there after `graceMs`. */
export async function killMarkedProcesses(name: string, value: string, graceMs = 2000): Promise<void> {
  const signal = (pids: number[], sig: NodeJS.Signals): void => {
    for (const pid of pids) {
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    }
  };
  signal(markedProcesses(name, value), "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (markedProcesses(name, value).length > 0 && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
  signal(markedProcesses(name, value), "SIGKILL");
}

/** Whether a process with this pid is still there (signal 0 only checks). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
