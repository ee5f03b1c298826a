// A server process's resident memory, from Linux's /proc: now (VmRSS) and its peak (VmHWM).
import { readFileSync } from "node:fs";

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
