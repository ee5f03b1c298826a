// First start: make sure the server has something to serve without any download. It sits with the
// engines because the default image model (a copy of the shipped trained one, else random weights)
// comes from theirs (the text one from models/).
import { mkdir, readdir } from "node:fs/promises";
import path from "node:path";
import { ensureDefaultImageModel } from "./image/default-model/default-image-model";
import { TINY_LLAMA_SIZES } from "../models/tiny-llama";
import { writeTinyLlamaGguf } from "../models/write-tiny-llama";

export type Log = (message: string) => void;

/** The default text model's file name (its model id is the name without .gguf). */
export const DEFAULT_TEXT_MODEL_FILE = `${TINY_LLAMA_SIZES.tiny.name}.gguf`;

/** Generates the embedded default models that `modelsDir` lacks. */
export async function ensureDefaultModels(modelsDir: string, log: Log): Promise<void> {
  await mkdir(modelsDir, { recursive: true });
  const names = await readdir(modelsDir);
  if (!names.some((n) => n.toLowerCase().endsWith(".gguf"))) {
    const file = path.join(modelsDir, DEFAULT_TEXT_MODEL_FILE);
    log(`no text model in ${modelsDir}: generating the default ${file}`);
    await writeTinyLlamaGguf(file, "tiny");
  }
  await ensureDefaultImageModel(modelsDir, log);
}
