import { createHash, randomBytes } from "node:crypto";
import { access, open, rename } from "node:fs/promises";

/** The name a stored copy of `bytes` goes by: its SHA-256, in hex. */
export function hashOf(bytes: Uint8Array): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/**
 * Writes `bytes` to `file` unless it is there already: a file named by its hash is only ever
 * renamed into place whole (see writeDurably), so one that exists holds those bytes.
 */
export async function writeOnce(file: string, bytes: Uint8Array): Promise<void> {
  if (!(await access(file).then(() => true, () => false))) await writeDurably(file, bytes);
}

/** To a temporary file flushed to disk, then renamed: a crash or power cut never leaves the name on cut-short bytes. */
export async function writeDurably(file: string, bytes: Uint8Array): Promise<void> {
  const temporary = `${file}.${randomBytes(4).toString("hex")}.tmp`;
  const handle = await open(temporary, "w");
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
}
