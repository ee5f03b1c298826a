// Writes a generated GGUF atomically (temp file + rename), so a crash never leaves half a model.
import { mkdir, open, rename, rm } from "node:fs/promises";
import path from "node:path";
import { buildTinyLlamaGguf, type TinyLlamaOptions, type TinyLlamaSize } from "./tiny-llama";

export async function writeTinyLlamaGguf(file: string, size: TinyLlamaSize, options: TinyLlamaOptions = {}): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  const handle = await open(temp, "w");
  try {
    for (const chunk of buildTinyLlamaGguf(size, options)) await handle.write(chunk);
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
