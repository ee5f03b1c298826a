import { mkdir } from "node:fs/promises";
import path from "node:path";
import { StartupError } from "./startup-error";

/** What a folder's creation failed on, for people. */
const reasons: Readonly<Record<string, string>> = {
  EEXIST: "a file is in the way (it is not a folder)",
  ENOTDIR: "a file is in the way on its path (not a folder)",
  EACCES: "not allowed to write there",
  EPERM: "not allowed to write there",
  EROFS: "it is on a read-only file system",
  ENOSPC: "the disk is full",
};

/**
 * Makes `dir` (given as `option`) if it is missing. One that cannot be made stops the server with
 * a line naming the option and why, not the system's bare "EEXIST: file already exists, mkdir"
 * and the usage text as for a mistyped command.
 */
export async function usableFolder(dir: string, option: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const why = reasons[code] ?? (error as Error).message;
    throw new StartupError(`cannot use ${path.resolve(dir)} as ${option}: ${why}${reasons[code] ? ` (${code})` : ""}: give another ${option}`);
  }
}
