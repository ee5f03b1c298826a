import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { copyFile, mkdir, readdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";

/**
 * Copies the model files shipped in the extension (its `models/` folder) into the server's models
 * folder when they are missing there, or when the shipped file changed (another size, or newer
 * than the copy: an updated extension). A folder (an SD-style image model) is copied file by file
 * in name order: the server lists it once its three ONNX parts are there, and vae_decoder's comes
 * last, after the tokenizer and the configs. Each file is copied under a temporary name and
 * renamed, so a server scanning the folder never sees half a model. Returns the paths copied,
 * relative to the models folder.
 */
export async function provisionShippedModels(shippedDir: string, modelsDir: string): Promise<string[]> {
  if (!existsSync(shippedDir)) return [];
  const copied: string[] = [];
  for (const name of (await readdir(shippedDir)).sort()) {
    const from = join(shippedDir, name);
    const source = await stat(from);
    const to = join(modelsDir, name);
    if (source.isDirectory()) {
      copied.push(...(await provisionShippedModels(from, to)).map((inner) => `${name}/${inner}`));
      continue;
    }
    if (!source.isFile()) continue;
    const target = await stat(to).catch(() => undefined);
    if (target !== undefined && target.size === source.size && target.mtimeMs >= source.mtimeMs) continue;
    await mkdir(modelsDir, { recursive: true });
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
