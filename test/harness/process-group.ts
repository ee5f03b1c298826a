import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { once } from "node:events";

/** A child started as the leader of its own process group, so that everything it forks can be ended together. */
export interface GroupProcess {
  child: ChildProcess;
  /** Resolves with the exit code (or signal name) once the leader has exited. */
  exited: Promise<number | string>;
  /** SIGTERM to the group, SIGKILL to the group after `graceMs`; resolves when the leader is gone. */
  stop(graceMs?: number): Promise<void>;
}

export function spawnGroup(command: string, args: string[], options: SpawnOptions = {}): GroupProcess {
  const child = spawn(command, args, { ...options, detached: true });
  const exited = once(child, "exit").then(([code, signal]) => (code ?? signal) as number | string);
  let stopping: Promise<void> | undefined;
  const stop = (graceMs = 3000): Promise<void> => {
    stopping ??= stopGroup(child, exited, graceMs);
    return stopping;
  };
  return { child, exited, stop };
}

async function stopGroup(child: ChildProcess, exited: Promise<unknown>, graceMs: number): Promise<void> {
  const pgid = child.pid;
  if (pgid === undefined) return;
  signalGroup(pgid, "SIGTERM");
  const timer = new Promise((done) => setTimeout(done, graceMs).unref());
  await Promise.race([exited, timer]);
  // The leader may be gone while its children linger: always finish the group off.
  signalGroup(pgid, "SIGKILL");
  if (child.exitCode === null && child.signalCode === null) await exited;
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

