// A server process's resident memory, from Linux's /proc: now (VmRSS) and its peak (VmHWM), and
// where it goes (each mapping's resident size from /proc/PID/smaps, grouped by what is mapped).
import { readFileSync } from "node:fs";
import path from "node:path";

export interface ResidentMemory {
  /** MiB resident now. */
  readonly rss: number;
  /** MiB at the most (the high-water mark since the process started). */
  readonly peak: number;
}

export function residentMemory(pid: number | undefined): ResidentMemory {
  if (pid === undefined) return { rss: NaN, peak: NaN };
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (key: string) => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rss: kib("VmRSS") / 1024, peak: kib("VmHWM") / 1024 };
}

/** MiB resident per mapped thing: a file's name, [heap], [stack], or [anon] for anonymous memory. */
export function residentByMapping(pid: number | undefined): Map<string, number> {
  const groups = new Map<string, number>();
  if (pid === undefined) return groups;
  let name = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    // A mapping's header: address range, permissions, offset, device, inode, then the path if any.
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (header) name = header[1] ? (header[1].startsWith("[") ? header[1].replace(/^\[anon:.*\]$/, "[anon]") : path.basename(header[1])) : "[anon]";
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) groups.set(name, (groups.get(name) ?? 0) + Number(rss[1]) / 1024);
  }
  return groups;
}
