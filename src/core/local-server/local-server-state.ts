/** What the local server run by this window is doing; shown in the status bar. */
export type LocalServerState =
  | { kind: "stopped" }
  | { kind: "starting"; port: number }
  | { kind: "running"; port: number; pid: number; restarts: number; lastExit?: string }
  | { kind: "restarting"; port: number; attempt: number; max: number; lastExit: string }
  | { kind: "failed"; message: string };

/** One tooltip line for the state; undefined while this window runs no server. */
export function describeLocalServer(state: LocalServerState): string | undefined {
  switch (state.kind) {
    case "stopped":
      return undefined;
    case "starting":
      return `Local server: starting on port ${state.port}`;
    case "running": {
      const restarted = state.restarts === 0 ? "" : `; restarted ${times(state.restarts)}, last after it ${state.lastExit ?? "exited"}`;
      return `Local server: running on port ${state.port} (pid ${state.pid})${restarted}`;
    }
    case "restarting":
      return `Local server: it ${state.lastExit}; restarting (attempt ${state.attempt} of ${state.max})`;
    case "failed":
      return `Local server: stopped: ${state.message}`;
  }
}

/** How a process ended, for people: "exited with code 1", "was killed (SIGKILL)". */
export function describeExit(code: number | null, signal: string | null): string {
  if (signal !== null) return signal === "SIGKILL" ? "was killed (SIGKILL)" : `was stopped by ${signal}`;
  return `exited with code ${code ?? "?"}`;
}

function times(n: number): string {
  return n === 1 ? "once" : `${n} times`;
}
