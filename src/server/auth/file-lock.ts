// An exclusive lock between processes (the server and `wisp-server keys ...` may change the same
// file): a lock file created with O_EXCL holding the owner's pid. A lock left by a process that
// died (SIGKILL, power loss) is taken over once its owner is gone or it is too old.
import { open, readFile, rm, stat } from "node:fs/promises";

export interface LockOptions {
  /** Longest wait for another holder, ms. */
  readonly waitMs?: number;
  /** A lock older than this is stale whoever holds it (no write takes this long), ms. */
  readonly staleMs?: number;
}

export async function withFileLock<T>(lockFile: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const { waitMs = 10_000, staleMs = 30_000 } = options;
  const deadline = Date.now() + waitMs;
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    try {
      const handle = await open(lockFile, "wx", 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (await isStale(lockFile, staleMs)) {
        await rm(lockFile, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lockFile} is held by another process`);
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  try {
    return await work();
  } finally {
    await rm(lockFile, { force: true });
  }
}

async function isStale(lockFile: string, staleMs: number): Promise<boolean> {
  try {
    const [owner, info] = await Promise.all([readFile(lockFile, "utf8"), stat(lockFile)]);
    if (Date.now() - info.mtimeMs > staleMs) return true;
    const pid = Number(owner);
    // Written but not yet filled in: its owner is alive and about to write the pid.
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return false;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOENT: released meanwhile (try again); ESRCH: its owner is gone.
    return code === "ESRCH" || code === "ENOENT";
  }
}
