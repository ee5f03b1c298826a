import { spawn } from "node:child_process";
import { constants } from "node:os";
import { OutputBuffer } from "../../core/agent/output-cut";
import { signalMeaning } from "../../core/terminal/exit-meaning";
import { RedrawStream } from "../../core/terminal/redraw-stream";
import { SecretMaskingStream } from "../../core/terminal/secret-masking-stream";

export interface CommandRun {
  readonly command: string;
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Most characters of output kept (head and tail). */
  readonly maxOutputChars: number;
  readonly signal: AbortSignal;
  /** The output so far, as it grows (already cut to the limit). */
  readonly onOutput: (text: string) => void;
  /** Whether the output (streamed and final) has secrets masked: masked as it streams, before it is cut. */
  readonly maskSecrets?: boolean;
}

export interface CommandResult {
  /**
   * null when the time limit or Stop killed it; for a shell that a signal ended (a crash, the
   * out-of-memory killer: bash and zsh run a lone command in their own process), 128 + the signal's
   * number, as a shell reports it.
   */
  readonly exitCode: number | null;
  /** The signal that ended the shell, when one did (SIGSEGV, SIGKILL). */
  readonly signal: NodeJS.Signals | null;
  /** Cut to the limit; masked when the run asked for that. The card, the saved chat and the model all get this one text. */
  readonly output: string;
  readonly timedOut: boolean;
  readonly stopped: boolean;
}

/** How long a killed command's group gets between SIGTERM and SIGKILL. */
const graceMs = 2_000;
/** How long the output is still read after the shell exits: what its pipes still hold comes in far sooner. */
const drainMs = 1_000;
/**
 * The editor git, crontab and the like open for a message or a file: there is no terminal to edit
 * in (vim waits for keys that never come, until the time limit), so it fails at once, saying how
 * to give the text instead. git runs it through sh with the file appended, which false ignores.
 */
const noEditor = `echo "No editor can open: this command runs without a terminal. Give the text on the command line instead (git commit -m MESSAGE, git merge --no-edit, GIT_SEQUENCE_EDITOR for git rebase -i)." >&2; false`;

/** The shell commands run with: cmd.exe on Windows, else the user's login shell ($SHELL), else sh. */
export function commandShell(): string {
  return process.platform === "win32" ? process.env.ComSpec || "cmd.exe" : process.env.SHELL || "/bin/sh";
}

/**
 * The environment commands run with: no pager, no editor (see noEditor), and on Windows no program
 * from the current folder. cmd.exe looks for a bare name in the current directory before PATH
 * (".;%PATH%") unless NoDefaultCurrentDirectoryInExePath is set, so an approved `git status` would
 * run a cloned repository's own git.bat or git.exe from its root.
 */
export function commandEnv(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const windows = platform === "win32";
  return { ...env, GIT_PAGER: "cat", PAGER: "cat", ...(windows ? { NoDefaultCurrentDirectoryInExePath: "1" } : { GIT_EDITOR: noEditor, EDITOR: noEditor, VISUAL: noEditor }) };
}

/**
 * Runs a command with the user's shell in its own process group, so a timeout or Stop ends the
 * whole tree (a test runner's workers, a dev server it started), not just the shell.
 */
export function runCommand(run: CommandRun): Promise<CommandResult> {
  const windows = process.platform === "win32";
  const shell = commandShell();
  const args = windows ? ["/d", "/s", "/c", run.command] : ["-c", run.command];
  const child = spawn(shell, args, { cwd: run.cwd, detached: !windows, stdio: ["ignore", "pipe", "pipe"], windowsHide: true, env: commandEnv(process.platform, process.env) });
  // Plain as a terminal shows it (a progress meter's last frame, no colour codes), then masked before the
  // buffer cuts its middle: a key whose BEGIN line is cut away is still masked.
  const plain = new RedrawStream();
  const masker = run.maskSecrets ? new SecretMaskingStream() : undefined;
  const output = new OutputBuffer();
  let timedOut = false;
  let stopped = false;
  let killTimer: NodeJS.Timeout | undefined;
  let drainTimer: NodeJS.Timeout | undefined;
  const kill = () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    signalTree(child.pid, "SIGTERM", windows);
    killTimer ??= setTimeout(() => signalTree(child.pid, "SIGKILL", windows), graceMs);
  };
  const onAbort = () => {
    stopped = true;
    kill();
  };
  run.signal.addEventListener("abort", onAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, run.timeoutMs);
  const add = (text: string) => {
    const lines = plain.push(text);
    output.append(masker ? masker.push(lines) : lines);
  };
  const append = (chunk: string) => {
    add(chunk);
    // The line still growing shows too (a progress bar), masked as it stands.
    run.onOutput(output.text(run.maxOutputChars) + (masker ? masker.preview(plain.preview()) : plain.preview()));
  };
  // Decoded per stream: a character whose bytes two reads split stays one character, not two U+FFFD.
  child.stdout.setEncoding("utf8").on("data", append);
  child.stderr.setEncoding("utf8").on("data", append);
  return new Promise((resolve) => {
    let finished = false;
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      run.signal.removeEventListener("abort", onAbort);
      if (killTimer) clearTimeout(killTimer);
      if (drainTimer) clearTimeout(drainTimer);
      const rest = plain.end();
      output.append(masker ? masker.push(rest) + masker.end() : rest);
      const exitCode = code ?? (signal && !timedOut && !stopped ? 128 + (constants.signals[signal] ?? 0) : null);
      resolve({ exitCode, signal, output: output.text(run.maxOutputChars), timedOut, stopped });
    };
    child.on("error", (error) => {
      add(`${error.message}\n`);
      finish(null, null);
    });
    // The shell is gone: whatever it left in its group goes too, or its open pipes would hold "close".
    child.on("exit", (code, signal) => {
      if (!windows) signalTree(child.pid, "SIGKILL", windows);
      // A process that left the group (setsid, a daemon, a browser xdg-open started) may hold the
      // pipes open for good: past a short drain the output is let go, or neither the time limit nor
      // Stop could end the command (both signal a group that is gone).
      drainTimer = setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        add("\n(a process the command started in the background still holds its output; it is no longer read)\n");
        finish(code, signal);
      }, drainMs);
    });
    child.on("close", (code, signal) => finish(code, signal));
    if (run.signal.aborted) onAbort();
  });
}

/** How the command ended, for the model: a crash or a kill is named, not left as "exit code null". */
export function howItEnded(result: CommandResult, timeoutMs: number): string {
  if (result.stopped) return "stopped by the user";
  if (result.timedOut) return `stopped after ${Math.round(timeoutMs / 1000)} s (the time limit)`;
  return result.signal ? `exit code ${result.exitCode} (${signalMeaning(result.signal)})` : `exit code ${result.exitCode}`;
}

function signalTree(pid: number | undefined, signal: NodeJS.Signals, windows: boolean): void {
  if (pid === undefined) return;
  try {
    if (windows) spawn("taskkill", ["/pid", String(pid), "/t", "/f"], { windowsHide: true });
    else process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}
