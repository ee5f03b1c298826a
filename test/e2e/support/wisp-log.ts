import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** What the Wisp log says, in every extension host's log file of the profile in `userDataDir`. */
export function readWispLog(userDataDir: string): string {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else if (entry.name === "Wisp.log") files.push(join(dir, entry.name));
    }
  };
  const logs = join(userDataDir, "logs");
  if (existsSync(logs)) walk(logs);
  return files.map((file) => readFileSync(file, "utf8")).join("\n");
}

/** The log's last `count` timestamped lines in time order (a restarted extension host writes a second file). */
export function wispLogTail(userDataDir: string, count = 40): string {
  return readWispLog(userDataDir).split("\n").filter((line) => /^\d{4}-/.test(line)).sort().slice(-count).join("\n");
}
