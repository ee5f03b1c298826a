// Usage records in DATA/usage/: an append-only log of JSON lines (one per request) and a rollup
// of hourly counts that older log segments are compacted into. A crash can tear at most the last
// line of the current segment; such a line is skipped on the next start. Compaction writes the
// rollup atomically, naming the last segment it covers, before deleting those segments, so a
// crash in between never counts a request twice. One log per data folder: it holds DATA/server.lock
// while open, since a second one would compact (delete) the segment the first still appends to.
import { existsSync } from "node:fs";
import { mkdir, open, readdir, readFile, rm, type FileHandle } from "node:fs/promises";
import path from "node:path";
import { asUsageEvent, UsageRollup, type UsageBucket, type UsageEvent, type UsageSnapshot } from "../../core/usage/usage-rollup";
import { writeFileAtomic } from "../atomic-file";
import { acquireFileLock, LockHeldError } from "../auth/file-lock";
import { StartupError } from "../startup-error";

interface RollupFile extends UsageSnapshot {
  version: 1;
  /** The highest segment number whose events the buckets include. */
  through: number;
}

const segmentName = (n: number) => `events-${String(n).padStart(6, "0")}.jsonl`;
const segmentPattern = /^events-(\d+)\.jsonl$/;

export interface UsageLogOptions {
  /** A segment this large is closed and compacted into the rollup (default 4 MiB). */
  segmentBytes?: number;
  /** Where problems reading or writing the log are reported. */
  log?: (message: string) => void;
}

export class UsageLog {
  readonly dir: string;
  readonly rollup = new UsageRollup();
  private readonly segmentBytes: number;
  private readonly log: (message: string) => void;
  private segment = 0;
  private segmentSize = 0;
  private handle: FileHandle | undefined;
  /** The segment `handle` appends to. */
  private handleSegment = 0;
  /** Writes run one after another, in the order the requests were recorded. */
  private queue: Promise<void> = Promise.resolve();
  private closed = false;
  private failed = false;
  private unlock: () => Promise<void> = async () => undefined;

  private constructor(dataDir: string, options: UsageLogOptions) {
    this.dir = path.join(dataDir, "usage");
    this.segmentBytes = options.segmentBytes ?? 4 * 1024 * 1024;
    this.log = options.log ?? (() => undefined);
  }

  get rollupFile(): string {
    return path.join(this.dir, "rollup.json");
  }

  /** Reads what earlier runs recorded, compacts their segments, and starts a new one. */
  static async open(dataDir: string, options: UsageLogOptions = {}): Promise<UsageLog> {
    const usage = new UsageLog(dataDir, options);
    usage.unlock = await lockDataDir(dataDir);
    try {
      await usage.load();
    } catch (error) {
      await usage.unlock();
      throw error;
    }
    return usage;
  }

  /**
   * What the log in DATA holds, read without changing a file (`wisp-server db import` reads a
   * server's files while that server may still run).
   */
  static async read(dataDir: string, options: UsageLogOptions = {}): Promise<UsageRollup> {
    const usage = new UsageLog(dataDir, options);
    if (existsSync(usage.dir)) await usage.readAll();
    usage.closed = true;
    return usage.rollup;
  }

  /** Counts the request now (the Usage page sees it at once) and appends it to the log. */
  record(event: UsageEvent): void {
    if (this.closed) return;
    this.rollup.add(event);
    const line = `${JSON.stringify(event)}\n`;
    this.segmentSize += Buffer.byteLength(line);
    // The segment is fixed now: by the time the write runs, a rotation may have begun the next.
    const segment = this.segment;
    this.enqueue(async () => {
      if (this.handle === undefined || this.handleSegment !== segment) {
        await this.handle?.close();
        this.handle = await open(path.join(this.dir, segmentName(segment)), "a", 0o600);
        this.handleSegment = segment;
      }
      await this.handle.write(line);
    });
    if (this.segmentSize >= this.segmentBytes) this.rotate();
  }

  /** Resolves once everything recorded so far is written. */
  flush(): Promise<void> {
    return this.queue;
  }

  async close(): Promise<void> {
    this.closed = true;
    try {
      await this.queue;
      await this.handle?.close();
      this.handle = undefined;
    } finally {
      await this.unlock();
    }
  }

  buckets(since?: number): UsageBucket[] {
    return this.rollup.buckets(since);
  }

  lastUsed(key: string): number | undefined {
    return this.rollup.lastUsed(key);
  }

  private async load(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 });
    const { through, segments } = await this.readAll();
    for (const n of segments) {
      // Left over from a compaction that ended before it could delete them: already counted.
      if (n <= through) await rm(path.join(this.dir, segmentName(n)), { force: true });
    }
    const newest = Math.max(through, ...segments);
    this.segment = newest + 1;
    if (newest > through) await this.compact(JSON.stringify(this.rollupFileFor(newest)), segments.filter((n) => n > through));
  }

  /** Counts the rollup and the segments it does not cover; returns which segments there are. */
  private async readAll(): Promise<{ through: number; segments: number[] }> {
    let through = 0;
    if (existsSync(this.rollupFile)) {
      let saved: RollupFile;
      try {
        saved = JSON.parse(await readFile(this.rollupFile, "utf8")) as RollupFile;
      } catch (error) {
        // Only a hand edit gets here (writes are atomic): say so rather than silently lose counts.
        throw new Error(`${this.rollupFile} is unreadable (${(error as Error).message}); move it away to start counting anew`);
      }
      this.rollup.merge(saved);
      through = saved.through;
    }
    const segments = (await readdir(this.dir))
      .map((name) => Number(segmentPattern.exec(name)?.[1] ?? Number.NaN))
      .filter((n) => Number.isInteger(n))
      .sort((a, b) => a - b);
    for (const n of segments) if (n > through) await this.readSegment(n);
    return { through, segments };
  }

  private async readSegment(n: number): Promise<void> {
    const text = await readFile(path.join(this.dir, segmentName(n)), "utf8");
    const lines = text.split("\n");
    // A crash mid-append leaves the last line without its newline: it never counted.
    const torn = lines.pop();
    let skipped = torn === "" ? 0 : 1;
    for (const line of lines) {
      if (line === "") continue;
      let event: UsageEvent | undefined;
      try {
        event = asUsageEvent(JSON.parse(line));
      } catch {
        event = undefined;
      }
      if (event) this.rollup.add(event);
      else skipped++;
    }
    if (skipped > 0) this.log(`usage: skipped ${skipped} unreadable line(s) of ${segmentName(n)} (a write cut short by a crash)`);
  }

  private rollupFileFor(through: number): RollupFile {
    return { version: 1, through, ...this.rollup.snapshot() };
  }

  /** Closes the current segment and compacts it; what is recorded next goes to a new one. */
  private rotate(): void {
    const done = this.segment;
    // The snapshot is taken now, while it holds exactly the events of segments up to `done`.
    const rollup = JSON.stringify(this.rollupFileFor(done));
    this.segment = done + 1;
    this.segmentSize = 0;
    this.enqueue(async () => {
      if (this.handleSegment === done) {
        await this.handle?.close();
        this.handle = undefined;
      }
      await this.compact(rollup, [done]);
    });
  }

  private async compact(rollup: string, segments: number[]): Promise<void> {
    await writeFileAtomic(this.rollupFile, rollup);
    for (const n of segments) await rm(path.join(this.dir, segmentName(n)), { force: true });
  }

  private enqueue(write: () => Promise<void>): void {
    this.queue = this.queue.then(write).catch((error: Error) => {
      // Serving goes on without usage records rather than failing requests; said once.
      if (!this.failed) this.log(`usage: could not write to ${this.dir}: ${error.message}`);
      this.failed = true;
    });
  }
}

/**
 * Held for the log's lifetime (the server's). A lock whose server is gone (crashed, killed, or
 * from before a reboot) is taken over.
 */
async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  try {
    return await acquireFileLock(path.join(dataDir, "server.lock"), { waitMs: 0, staleMs: Number.POSITIVE_INFINITY });
  } catch (error) {
    if (!(error instanceof LockHeldError)) throw error;
    const owner = error.owner === undefined ? "another wisp-server" : `another wisp-server (pid ${error.owner})`;
    throw new StartupError(`${owner} is using the data folder ${path.resolve(dataDir)}: stop it, or give this one another --data-dir`);
  }
}
