import * as vscode from "vscode";
import { redact } from "../core/log/redact";

export type LogLevel = "debug" | "info" | "warn" | "error";

/**
 * Writes to the Wisp output channel. Every line passes through `redact` with the secrets known
 * right now, so a key never reaches the log even when an error message quotes it.
 */
export class Logger implements vscode.Disposable {
  private readonly channel: vscode.LogOutputChannel;
  private readonly recent: string[] = [];
  private secrets: readonly string[] = [];
  private readonly sourced = new Map<string, readonly string[]>();
  private closed = false;

  constructor(name = "Wisp", private readonly keep = 2000) {
    this.channel = vscode.window.createOutputChannel(name, { log: true });
  }

  /** Secrets to scrub from every line: the current API key, or (with a source) others, such as MCP inputs. */
  setSecrets(secrets: readonly string[], source = "key"): void {
    this.sourced.set(source, secrets.filter((s) => s.length > 0));
    this.secrets = [...this.sourced.values()].flat();
  }

  debug(message: string): void { this.write("debug", message); }
  info(message: string): void { this.write("info", message); }
  warn(message: string): void { this.write("warn", message); }
  error(message: string): void { this.write("error", message); }

  show(): void { this.channel.show(true); }

  /** What was logged, newest last (bounded): lets tests check that no secret was written. */
  lines(): readonly string[] { return this.recent; }

  dispose(): void {
    this.closed = true;
    this.channel.dispose();
  }

  private write(level: LogLevel, message: string): void {
    const line = redact(message, this.secrets);
    this.recent.push(`[${level}] ${line}`);
    if (this.recent.length > this.keep) this.recent.splice(0, this.recent.length - this.keep);
    // What is disposed after the log (the local server stopping, on a window reload or close) may
    // still say so: the closed channel would throw "Channel has been closed" from the caller.
    if (!this.closed) this.channel[level === "warn" ? "warn" : level](line);
  }
}
