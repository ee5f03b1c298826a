import { randomUUID } from "node:crypto";
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";

/**
 * Replaces `file` with `text` through a temporary file flushed to disk and renamed into place:
 * a crash or a power cut leaves the old or the new content, never half of one. Synchronous, for
 * writes that must be done when a window closes. The temporary name is this writer's own: two
 * windows of a workspace writing the same file at once must not write into, and rename, one
 * temporary file (one window's rename then failed, and a mix of both writes could land in place).
 */
export function replaceFileSync(file: string, text: string): void {
  const temporary = `${file}.${process.pid}.${randomUUID()}.tmp`;
  try {
    const fd = openSync(temporary, "wx");
    try {
      const bytes = Buffer.from(text, "utf8");
      for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
      // Without it, a power cut soon after the rename can leave the name on empty or cut-short bytes.
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
