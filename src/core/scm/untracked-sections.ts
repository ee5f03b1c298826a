/**
 * The diff sections of untracked files, as Generate Commit Message sends them when nothing is
 * staged: read a few at a time, the smallest first, up to a total; the files past it are named
 * with a note rather than dropped, so the model (and the log) knows they exist.
 */
import { mapBounded } from "../base/map-bounded";
import { binaryFileSection, newFileSection } from "./changes-diff";

/** What a path is before it is read: a file and its size, a link and its target, or nothing to read (a folder, a file gone). */
export type UntrackedEntry = { readonly kind: "file"; readonly size: number } | { readonly kind: "link"; readonly target: string } | { readonly kind: "none" };

export type UntrackedText = { readonly kind: "text"; readonly text: string } | { readonly kind: "too-large" } | { readonly kind: "binary" };

export interface UntrackedIo {
  inspect(path: string): Promise<UntrackedEntry>;
  read(path: string, maxBytes: number): Promise<UntrackedText>;
}

export interface UntrackedLimits {
  /** A larger file is named as too large, not read. */
  readonly fileBytes: number;
  /** What all the files read may come to: a tree of thousands of files is not read whole into one string. */
  readonly totalBytes: number;
  /** Reads (and looks-ups) at once. */
  readonly atOnce: number;
}

export const untrackedLimits: UntrackedLimits = { fileBytes: 512 * 1024, totalBytes: 4 * 1024 * 1024, atOnce: 16 };

const noteSection = (path: string, note: string) => `${newFileSection(path, "")}@@ -0,0 +1 @@\n+[${note}]\n`;

/** A file gone since the status, or a folder (an untracked nested repository): nothing to commit there. */
const goneCodes = new Set(["ENOENT", "EISDIR", "ENOTDIR", "FileNotFound", "FileIsADirectory"]);

async function settle<T>(step: () => Promise<T>): Promise<T | { readonly failed: string }> {
  try {
    return await step();
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error instanceof Error ? error.name : "");
    return { failed: goneCodes.has(code) ? "" : code || "error" };
  }
}

/** One section per path (in their order; "" for a path with nothing to commit). */
export async function untrackedSections(paths: readonly string[], io: UntrackedIo, isSensitive: (path: string) => boolean, limits: UntrackedLimits = untrackedLimits): Promise<string[]> {
  const entries = await mapBounded(paths, limits.atOnce, (path) => (isSensitive(path) ? Promise.resolve(undefined) : settle(() => io.inspect(path))));
  // The smallest files first: within the total, the most files are read.
  const order = paths.map((_, i) => i).filter((i) => fileSize(entries[i]) !== undefined).sort((a, b) => fileSize(entries[a])! - fileSize(entries[b])! || a - b);
  const toRead = new Set<number>();
  let total = 0;
  for (const i of order) {
    const size = fileSize(entries[i])!;
    if (size > limits.fileBytes) continue;
    if (total + size > limits.totalBytes) break;
    total += size;
    toRead.add(i);
  }
  return mapBounded(paths, limits.atOnce, async (path, i) => {
    const entry = entries[i];
    if (entry === undefined) return newFileSection(path, "");
    if ("failed" in entry) return entry.failed === "" ? "" : noteSection(path, `a new file that could not be read (${entry.failed}): its content is left out`);
    if (entry.kind === "none") return "";
    // A link is committed as the path it points to: the file there (maybe outside the repository) is not read.
    if (entry.kind === "link") return newFileSection(path, entry.target, "120000");
    if (entry.size > limits.fileBytes) return noteSection(path, `a new file over ${limits.fileBytes / 1024} KB: its content is left out`);
    if (!toRead.has(i)) return noteSection(path, `a new file not read: the untracked files read came to ${limits.totalBytes / 1024 / 1024} MB`);
    const file = await settle(() => io.read(path, limits.fileBytes));
    if ("failed" in file) return file.failed === "" ? "" : noteSection(path, `a new file that could not be read (${file.failed}): its content is left out`);
    if (file.kind === "binary") return binaryFileSection(path);
    if (file.kind === "too-large") return noteSection(path, `a new file over ${limits.fileBytes / 1024} KB: its content is left out`);
    return newFileSection(path, file.text);
  });
}

function fileSize(entry: UntrackedEntry | { readonly failed: string } | undefined): number | undefined {
  return entry !== undefined && !("failed" in entry) && entry.kind === "file" ? entry.size : undefined;
}
