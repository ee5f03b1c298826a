// An exclusive lock between processes (the server and `wisp-server keys ...` may change the same
// file): a lock file created with O_EXCL holding the owner's pid. A lock left by a process that
// died (SIGKILL, power loss) is taken over once its owner is gone or it is too old.
import { randomUUID } from "node:crypto";
import { link as hardLink, readFile, rm, stat, writeFile } from "node:fs/promises";
import { uptime } from "node:os";
import { processExists } from "../../core/base/process-exists";
import { retryWhileBusy } from "../busy-retry";

export interface LockOptions {
  /** Longest wait for another holder, ms. */
  readonly waitMs?: number;
  /** A lock older than this is stale whoever holds it (no write takes this long), ms. */
  readonly staleMs?: number;
  /** Creates the lock as a hard link of the claim (a parameter for tests). */
  readonly link?: (existing: string, created: string) => Promise<void>;
}

/** A file system without hard links (FAT and exFAT drives, some network shares on Windows). */
const noHardLinks = new Set(["EPERM", "ENOTSUP", "EOPNOTSUPP", "ENOSYS", "EXDEV"]);

export async function withFileLock<T>(lockFile: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const release = await acquireFileLock(lockFile, options);
  try {
    return await work();
  } finally {
    await release();
  }
}

/**
 * Takes the lock and keeps it until the returned release is called (once is enough; later calls
 * do nothing, so they never remove a lock another holder took since).
 */
export async function acquireFileLock(lockFile: string, options: LockOptions = {}): Promise<() => Promise<void>> {
  const { waitMs = 10_000, staleMs = 30_000, link = hardLink } = options;
  const deadline = Date.now() + waitMs;
  // The lock appears with its owner's pid already in it (a hard link of a finished file), so a
  // process killed at any point leaves either no lock or one that names it.
  const claim = `${lockFile}.${process.pid}.${randomUUID()}`;
  const stamp = await ownerStamp(process.pid);
  await writeFile(claim, stamp, { mode: 0o600 });
  try {
    for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
      try {
        await link(claim, lockFile).catch(async (error: NodeJS.ErrnoException) => {
          if (!noHardLinks.has(error.code ?? "")) throw error;
          // Without hard links: an exclusive create, then the pid (a lock killed between the two
          // holds no pid and counts as stale).
          await writeFile(lockFile, stamp, { flag: "wx", mode: 0o600 });
        });
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        if (await isStale(lockFile, staleMs)) {
          await retryWhileBusy(() => rm(lockFile, { force: true }));
          continue;
        }
        if (Date.now() > deadline) throw new LockHeldError(lockFile, await ownerOf(lockFile));
        await new Promise((resolve) => setTimeout(resolve, pause));
      }
    }
  } finally {
    await rm(claim, { force: true });
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    // Windows: another process may be reading it to see whether it is stale.
    await retryWhileBusy(() => rm(lockFile, { force: true }));
  };
}

/** The lock stayed taken for the whole wait. */
export class LockHeldError extends Error {
  /** The holder's pid, when the lock names one. */
  constructor(readonly lockFile: string, readonly owner?: number) {
    super(`${lockFile} is held by another process`);
  }
}

async function isStale(lockFile: string, staleMs: number): Promise<boolean> {
  try {
    const [owner, info] = await Promise.all([readFile(lockFile, "utf8"), stat(lockFile)]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    // Written before the machine last started: its pid may be another process's now.
    if (info.mtimeMs < Date.now() - uptime() * 1000 - 5_000) return true;
    // Created without hard links and its pid not written yet: held (the age above covers a leftover).
    if (owner === "") return false;
    const [pid, started] = parseStamp(owner);
    if (pid === undefined) return true; // not a lock this code wrote
    if (!processExists(pid)) return true;
    // Alive, but maybe another process under a reused pid: a container's restarted server gets the
    // same pid as the one killed, so without this its own lock would shut it out for good.
    return started !== undefined && started !== (await startTime(pid));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOENT: released meanwhile (try again).
    return code === "ENOENT";
  }
}

async function ownerOf(lockFile: string): Promise<number | undefined> {
  return parseStamp(await readFile(lockFile, "utf8").catch(() => ""))[0];
}

/** What a lock holds: the owner's pid, then its start time where the system tells it (Linux). */
async function ownerStamp(pid: number): Promise<string> {
  const started = await startTime(pid);
  return started === undefined ? String(pid) : `${pid} ${started}`;
}

function parseStamp(text: string): [pid: number | undefined, started: string | undefined] {
  const [first = "", started] = text.trim().split(" ");
  const pid = Number(first);
  return [Number.isInteger(pid) && pid > 0 ? pid : undefined, started];
}

/** A process's start time in clock ticks since boot (/proc/PID/stat's 22nd field); undefined off Linux. */
async function startTime(pid: number): Promise<string | undefined> {
  const line = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => undefined);
  // The command name (field 2) may hold spaces and parentheses: count from after its last ')'.
  return line?.slice(line.lastIndexOf(")") + 2).split(" ")[19];
}
