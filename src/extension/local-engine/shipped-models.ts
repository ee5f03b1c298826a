import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * Copies the model files shipped in the extension (its `models/` folder) into the server's models
 * folder when they are missing there, or when the shipped file changed (another size, or newer
 * than the copy: an updated extension). Each file is copied under a temporary name and renamed,
 * so a server scanning the folder never sees half a model. Returns the names copied.
 */
export async function provisionShippedModels(shippedDir: string, modelsDir: string): Promise<string[]> {
  if (!existsSync(shippedDir)) return [];
  await mkdir(modelsDir, { recursive: true });
  const copied: string[] = [];
  for (const name of await readdir(shippedDir)) {
    const from = join(shippedDir, name);
    const source = await stat(from);
    if (!source.isFile()) continue;
    const to = join(modelsDir, name);
    const target = await stat(to).catch(() => undefined);
    if (target !== undefined && target.size === source.size && target.mtimeMs >= source.mtimeMs) continue;
    const temp = join(modelsDir, `.${name}.${randomUUID()}.partial`);
    try {
      await copyFile(from, temp);
      await rename(temp, to);
    } finally {
      await rm(temp, { force: true });
    }
    copied.push(name);
  }
  return copied;
}
