import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

/** One entry of a VS Code log file: its first line (`date time [level] message`) and the lines after it (a stack). */
export interface LogEntry {
  level: string;
  text: string;
}

/** The extension host's log files under a user data folder's logs (the remote host's in code-server). */
export function extensionHostLogs(userDataDir: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (/^(remote)?exthost\.log$/.test(name)) found.push(path);
    }
  };
  const logs = join(userDataDir, "logs");
  if (existsSync(logs)) walk(logs);
  return found;
}

const entryStart = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \[(\w+)\]/;

/** The entries of a log file, each with the stack lines that follow it. */
export function logEntries(file: string): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const start = entryStart.exec(line);
    if (start) entries.push({ level: start[1]!, text: line });
    else if (entries.length > 0) entries.at(-1)!.text += `\n${line}`;
  }
  return entries;
}

/**
 * The errors and warnings of the extension host's logs under `userDataDir` that an extension
 * raised: a stack through its files (a path that contains `codePath`), or VS Code naming it
 * (`[publisher.name] …`). Each as its first line and the first line of the stack in its files.
 */
export function raisedBy(userDataDir: string, extensionId: string, codePath: string): string[] {
  return extensionHostLogs(userDataDir)
    .flatMap(logEntries)
    .filter((entry) => (entry.level === "error" || entry.level === "warning") && (entry.text.includes(codePath) || entry.text.includes(`[${extensionId}]`)))
    // The editor's own refusal of a command while the window closes (it logs a handled one too):
    // no fault of the code that asked, and a race no run decides. Every other error counts.
    .filter((entry) => !/^\S+ \S+ \[error\] Canceled: Canceled$/.test(entry.text.split("\n")[0]!))
    .map((entry) => {
      const lines = entry.text.split("\n");
      return [lines[0], lines.find((line) => line.includes(codePath))].filter((line) => line !== undefined).join("\n");
    });
}
