// The SHA-256 of each model's first download, kept in the models folder: a later download of the same
// file must match it, so a changed or tampered file is noticed even where no publisher states a hash.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { writeFileAtomic } from "../../atomic-file";

export interface RecordedHash {
  readonly sha256: string;
  readonly bytes: number;
  readonly url: string;
  /** ISO time of the first download. */
  readonly recorded: string;
}

export const recordFileName = ".wisp-model-hashes.json";

export class RecordedHashes {
  readonly file: string;

  constructor(modelsDir: string) {
    this.file = path.join(modelsDir, recordFileName);
  }

  async get(fileName: string): Promise<RecordedHash | undefined> {
    return (await this.read())[fileName];
  }

  async record(fileName: string, entry: RecordedHash): Promise<void> {
    const all = await this.read();
    all[fileName] = entry;
    await writeFileAtomic(this.file, `${JSON.stringify(all, null, 2)}\n`);
  }

  private async read(): Promise<Record<string, RecordedHash>> {
    let text: string;
    try {
      text = await readFile(this.file, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      return parsed && typeof parsed === "object" && !Array.isArray(parsed) ? (parsed as Record<string, RecordedHash>) : {};
    } catch {
      throw new Error(`${this.file} is not valid JSON: fix or delete it (it only holds the hashes of earlier downloads)`);
    }
  }
}
