// The arithmetic of a download that may resume: where an answer starts, how fast it goes, how long is
// left. Pure, so the CLI's bar and the editor's notification show the same figures.

export interface DownloadProgress {
  /** Bytes in the file so far, including what an earlier attempt left. */
  readonly received: number;
  /** The whole file's size, when the server says it. */
  readonly total?: number;
  /** Bytes that were already there when this pull started (resumed). */
  readonly resumedFrom: number;
  readonly bytesPerSecond: number;
  /** Undefined until the rate and the total are known. */
  readonly secondsLeft?: number;
}

/** `Content-Range: bytes START-END/TOTAL` (TOTAL may be `*`). */
export function parseContentRange(header: string | null): { start: number; end: number; total?: number } | undefined {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec((header ?? "").trim());
  if (!match) return undefined;
  const [start, end] = [Number(match[1]), Number(match[2])];
  return match[3] === "*" ? { start, end } : { start, end, total: Number(match[3]) };
}

/**
 * How to use an answer to a request for the bytes from `have` on: 206 at exactly that offset appends,
 * anything else that succeeds (200: the server ignored the range, or the file changed) starts over.
 */
export function continuation(have: number, status: number, headers: { get(name: string): string | null }): { append: boolean; total?: number } {
  const length = Number(headers.get("content-length") ?? NaN);
  if (status === 206) {
    const range = parseContentRange(headers.get("content-range"));
    if (range && range.start === have) {
      const total = range.total ?? (Number.isFinite(length) ? have + length : undefined);
      return total === undefined ? { append: true } : { append: true, total };
    }
    return { append: false };
  }
  return Number.isFinite(length) ? { append: false, total: length } : { append: false };
}

/** Rate over a sliding window of recent samples, so a stall shows at once and a burst does not linger. */
export class RateMeter {
  private readonly samples: Array<{ at: number; bytes: number }> = [];

  constructor(private readonly windowMs = 5000) {}

  /** `bytes`: the running count of bytes received in this pull; `at`: milliseconds. */
  sample(bytes: number, at: number): number {
    this.samples.push({ at, bytes });
    while (this.samples.length > 2 && at - this.samples[1]!.at >= this.windowMs) this.samples.shift();
    const first = this.samples[0]!;
    const elapsed = at - first.at;
    return elapsed > 0 ? ((bytes - first.bytes) * 1000) / elapsed : 0;
  }
}

export function progressAt(received: number, total: number | undefined, resumedFrom: number, bytesPerSecond: number): DownloadProgress {
  const secondsLeft = total !== undefined && bytesPerSecond > 0 ? Math.max(0, (total - received) / bytesPerSecond) : undefined;
  return {
    received,
    resumedFrom,
    bytesPerSecond,
    ...(total === undefined ? {} : { total }),
    ...(secondsLeft === undefined ? {} : { secondsLeft }),
  };
}

/** 1.5 GB, 640.0 MB, 12 KB: decimal units, as download sizes are published. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} KB`;
  return `${bytes} B`;
}

/** 45s, 3m 05s, 1h 02m. */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`;
}

/** "512.0 MB of 1.13 GB (45%), 12.3 MB/s, 1m 05s left": the one-line summary both front ends show. */
export function describeProgress(p: DownloadProgress): string {
  const amount = p.total ? `${formatBytes(p.received)} of ${formatBytes(p.total)} (${Math.floor((p.received / p.total) * 100)}%)` : formatBytes(p.received);
  const rate = p.bytesPerSecond > 0 ? `, ${formatBytes(p.bytesPerSecond)}/s` : "";
  const left = p.secondsLeft !== undefined && p.bytesPerSecond > 0 ? `, ${formatDuration(p.secondsLeft)} left` : "";
  return `${amount}${rate}${left}`;
}
