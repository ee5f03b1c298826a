// Scans the models directory: *.gguf files are text models, diffusers-layout ONNX folders image models.
import { existsSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import path from "node:path";

export type ModelKind = "text" | "image";

export interface ModelEntry {
  /** What clients pass as `model`: the file name without .gguf, or the folder name. */
  id: string;
  kind: ModelKind;
  /** The .gguf file, or the ONNX pipeline folder. */
  path: string;
  /** Unix seconds, from the file's modification time. */
  created: number;
}

const IMAGE_PARTS = ["text_encoder/model.onnx", "unet/model.onnx", "vae_decoder/model.onnx"];

export function isImagePipelineDir(dir: string): boolean {
  return IMAGE_PARTS.every((part) => existsSync(path.join(dir, part)));
}

export class ModelRegistry {
  private entries: ModelEntry[] = [];

  /** `enabled` false: a server of upstream models only, which lists nothing of its own. */
  constructor(readonly modelsDir: string, private readonly enabled = true) {}

  /** Re-reads the directory (call after adding models). */
  async scan(): Promise<ModelEntry[]> {
    const names = this.enabled && existsSync(this.modelsDir) ? (await readdir(this.modelsDir)).sort() : [];
    const found: ModelEntry[] = [];
    for (const name of names) {
      const full = path.join(this.modelsDir, name);
      const info = await stat(full);
      const created = Math.floor(info.mtimeMs / 1000);
      if (info.isFile() && name.toLowerCase().endsWith(".gguf")) {
        found.push({ id: name.slice(0, -".gguf".length), kind: "text", path: full, created });
      } else if (info.isDirectory() && isImagePipelineDir(full)) {
        found.push({ id: name, kind: "image", path: full, created });
      }
    }
    this.entries = found;
    return found;
  }

  list(kind?: ModelKind): ModelEntry[] {
    return kind ? this.entries.filter((e) => e.kind === kind) : [...this.entries];
  }

  get(id: string): ModelEntry | undefined {
    return this.entries.find((e) => e.id === id);
  }
}
