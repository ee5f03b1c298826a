import * as vscode from "vscode";
import type { TerminalCommand } from "../../core/terminal/terminal-command";

/** Raw output kept per command: the tail is what explains a failure. */
const keptChars = 256 * 1024;
/**
 * Longest wait, after the shell says a command ended, for the rest of its output to be read (the
 * end can be reported before the last output arrives).
 */
const drainMs = 2_000;

export interface FinishedCommand extends TerminalCommand {
  readonly terminal: vscode.Terminal;
}

/**
 * The last command of each integrated terminal, as VS Code's shell integration reports it: its
 * command line, exit code, working folder and output (read from its start, the tail kept).
 */
export class TerminalHistory implements vscode.Disposable {
  private readonly last = new Map<vscode.Terminal, FinishedCommand>();
  /** The command each terminal runs now, from its start until its end is reported. */
  private readonly started = new Map<vscode.Terminal, vscode.TerminalShellExecution>();
  private readonly outputs = new Map<vscode.TerminalShellExecution, OutputTail>();
  private readonly ending = new Set<Promise<void>>();
  private readonly changed = new vscode.EventEmitter<FinishedCommand>();
  private readonly disposables: vscode.Disposable[];
  /** Fires when a command has ended and is recorded. */
  readonly onDidRecord = this.changed.event;

  constructor() {
    this.disposables = [
      this.changed,
      vscode.window.onDidStartTerminalShellExecution((event) => {
        this.outputs.set(event.execution, new OutputTail(event.execution));
        this.started.set(event.terminal, event.execution);
      }),
      vscode.window.onDidEndTerminalShellExecution((event) => {
        if (this.started.get(event.terminal) === event.execution) this.started.delete(event.terminal);
        const ended = this.record(event).finally(() => this.ending.delete(ended));
        this.ending.add(ended);
      }),
      vscode.window.onDidCloseTerminal((terminal) => {
        this.last.delete(terminal);
        // A terminal closed mid-command gets no end event (VS Code ends no execution on close):
        // its output (up to twice keptChars) would be held until the window closes.
        const execution = this.started.get(terminal);
        if (execution) this.outputs.delete(execution);
        this.started.delete(terminal);
      }),
    ];
  }

  /** The last command of `terminal` (of any terminal when none is given: the latest), once it is recorded. */
  async latest(terminal?: vscode.Terminal): Promise<FinishedCommand | undefined> {
    await Promise.all([...this.ending]);
    if (terminal) return this.last.get(terminal);
    return [...this.last.values()].at(-1);
  }

  /** The command line of the command `terminal` runs now ("" when the shell did not say it), undefined when none runs. */
  running(terminal: vscode.Terminal): string | undefined {
    return this.started.get(terminal)?.commandLine.value;
  }

  /** The command `terminal` runs now, with what it has printed so far; undefined when none runs. */
  runningCommand(terminal: vscode.Terminal): FinishedCommand | undefined {
    const execution = this.started.get(terminal);
    if (execution === undefined) return undefined;
    return { terminal, terminalName: terminal.name, commandLine: execution.commandLine.value, exitCode: undefined, running: true, cwd: execution.cwd?.fsPath, output: this.outputs.get(execution)?.text ?? "" };
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private async record(event: vscode.TerminalShellExecutionEndEvent): Promise<void> {
    const { execution, terminal, exitCode } = event;
    const tail = this.outputs.get(execution);
    this.outputs.delete(execution);
    let timer: NodeJS.Timeout | undefined;
    if (tail) await Promise.race([tail.done, new Promise((done) => (timer = setTimeout(done, drainMs)))]).finally(() => clearTimeout(timer));
    const command: FinishedCommand = { terminal, terminalName: terminal.name, commandLine: execution.commandLine.value, exitCode, cwd: execution.cwd?.fsPath, output: tail?.text ?? "" };
    // Re-inserted: the Map's last entry is the latest command of any terminal.
    this.last.delete(terminal);
    this.last.set(terminal, command);
    this.changed.fire(command);
  }
}

/** An execution's output as it comes, its last `keptChars` kept. */
class OutputTail {
  private data = "";
  readonly done: Promise<void>;

  constructor(execution: vscode.TerminalShellExecution) {
    this.done = this.read(execution.read());
  }

  get text(): string {
    return this.data.slice(-keptChars);
  }

  private async read(stream: AsyncIterable<string>): Promise<void> {
    try {
      for await (const chunk of stream) {
        this.data += chunk;
        if (this.data.length > keptChars * 2) this.data = this.data.slice(-keptChars);
      }
    } catch {
      // The terminal went away: what was read is all there is.
    }
  }
}
