// What differs between Windows and the rest when the extension runs wisp-server: how a command
// line reaches the program (a custom command may be an npm .cmd shim, which Windows runs only
// through cmd.exe) and how the server and everything it started are stopped (a process group
// and signals elsewhere; stdin closed, then taskkill over the process tree on Windows).
import { spawn } from "node:child_process";

/** How to spawn a command: the program, its arguments and the spawn options that differ per platform. */
export interface Launch {
  readonly file: string;
  readonly args: string[];
  /** The arguments are one command line already quoted for cmd.exe (Windows only). */
  readonly windowsVerbatimArguments: boolean;
  /** Its own process group (not on Windows, where that would give it a console of its own). */
  readonly detached: boolean;
}

/** cmd.exe's special characters: each gets a caret so that cmd passes it on as it is. */
const cmdSpecial = /([()\][%!^"`<>&|;, *?])/g;

/**
 * `command args` as `platform` spawns it. `shell`: the command is the user's (a name on PATH or a
 * path, maybe a .cmd or .bat file), which Windows runs through cmd.exe; the bundled server's
 * executable is run directly everywhere.
 */
export function launchLine(command: string, args: readonly string[], platform: NodeJS.Platform, shell: boolean, comSpec = "cmd.exe"): Launch {
  if (platform !== "win32") return { file: command, args: [...args], windowsVerbatimArguments: false, detached: true };
  if (!shell) return { file: command, args: [...args], windowsVerbatimArguments: false, detached: false };
  // A batch file's arguments go through cmd's parser twice: their carets are doubled. A bare name
  // is most likely npm's .cmd shim (wisp-server.cmd).
  const batch = /\.(cmd|bat)$/i.test(command) || !/\.[a-z0-9]+$/i.test(command);
  const line = [command.replace(cmdSpecial, "^$1"), ...args.map((arg) => quoteWindowsArgument(arg, batch))].join(" ");
  return { file: comSpec, args: ["/d", "/s", "/c", `"${line}"`], windowsVerbatimArguments: true, detached: false };
}

/**
 * One argument for a program started by cmd.exe: quoted as the C runtime splits a command line
 * (backslashes before a quote doubled, the quote escaped), then cmd's special characters escaped.
 */
export function quoteWindowsArgument(arg: string, batch: boolean): string {
  const quoted = `"${arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, "$1$1")}"`;
  const once = quoted.replace(cmdSpecial, "^$1");
  return batch ? once.replace(cmdSpecial, "^$1") : once;
}

/** The parts of a child process the stopping logic touches. */
export interface TreeChild {
  readonly pid?: number | undefined;
  readonly stdin?: { end(): unknown } | null;
}

/** Stopping a server and everything it started. */
export interface ProcessTree {
  /** Asks it to stop as on Ctrl+C. */
  terminate(child: TreeChild): void;
  /** Ends it and its descendants at once. */
  kill(child: TreeChild): void;
  /** After it exited: ends what it left running. */
  afterExit(child: TreeChild): void;
}

/** Runs a helper program and forgets it (taskkill). */
export type Runner = (file: string, args: string[]) => void;
/** process.kill's shape: a negative pid is a process group. */
export type Signaller = (pid: number, signal: NodeJS.Signals) => void;

const runQuietly: Runner = (file, args) => {
  spawn(file, args, { stdio: "ignore", windowsHide: true }).once("error", () => {});
};

/** How `platform` stops a server started by launchLine. */
export function processTree(platform: NodeJS.Platform, run: Runner = runQuietly, signal: Signaller = process.kill): ProcessTree {
  if (platform === "win32") {
    // No signals between processes on Windows: the bundled server stops as on Ctrl+C when its
    // stdin closes (server-command.ts); taskkill /T /F ends the whole tree otherwise.
    return {
      terminate: (child) => void child.stdin?.end(),
      kill: (child) => {
        if (child.pid !== undefined) run("taskkill", ["/PID", String(child.pid), "/T", "/F"]);
      },
      // Its tree went with it (/T follows parent ids, which an exited process no longer anchors).
      afterExit: () => {},
    };
  }
  const group = (child: TreeChild, name: NodeJS.Signals) => {
    if (child.pid === undefined) return;
    try {
      signal(-child.pid, name);
    } catch {
      // Already gone.
    }
  };
  return {
    terminate: (child) => group(child, "SIGTERM"),
    kill: (child) => group(child, "SIGKILL"),
    // The leader is gone; anything it left in its group goes too.
    afterExit: (child) => group(child, "SIGKILL"),
  };
}
