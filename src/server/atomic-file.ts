// Replaces a file so that readers (and a restart after a crash) see the old or the new content,
// never a mix: write a temporary file beside it, flush it to disk, rename it into place.
import { randomUUID } from "node:crypto";
import { statSync } from "node:fs";
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { retryWhileBusy } from "./busy-retry";

/** Writes `data` to `file` atomically, owner-only (0600), creating its folder owner-only (0700). */
export async function writeFileAtomic(file: string, data: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${randomUUID()}.tmp`;
  const handle = await open(temp, "wx", 0o600);
  try {
    await handle.writeFile(data, "utf8");
    await handle.chmod(0o600); // the umask may have narrowed or widened open()'s mode
    await handle.sync();
  } catch (error) {
    await handle.close();
    await rm(temp, { force: true });
    throw error;
  }
  await handle.close();
  try {
    // On Windows a reader holding `file` open makes the rename fail for a moment.
    await retryWhileBusy(() => rename(temp, file));
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/**
 * What identifies a file's content without reading it: inode, size and times ("none" when there is
 * no file). A file replaced as above gets a new inode; an edit in place changes its size or times.
 * Synchronous: ~2 µs, checked on every request that reads the file.
 */
export function fileVersion(file: string): string {
  const info = statSync(file, { throwIfNoEntry: false });
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}:${info.ctimeMs}` : "none";
}
