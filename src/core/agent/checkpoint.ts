/**
 * The undo record of an agent task: each file's state before the task first wrote to it, and what
 * Undo has to do to put it back. Pure data; the extension reads and writes the files.
 */
import { lineChanges } from "./line-diff";

export type FileOriginal = { readonly existed: true; readonly bytes: Uint8Array } | { readonly existed: false };

export type UndoStep = { readonly path: string; readonly action: "restore"; readonly bytes: Uint8Array } | { readonly path: string; readonly action: "delete" };

export class Checkpoint {
  private readonly originals = new Map<string, FileOriginal>();

  /** Remembers a file's state before the task's first write to it; later calls for the same path keep the first. */
  remember(path: string, original: FileOriginal): void {
    if (this.originals.has(path)) return;
    // A copy: the caller's buffer may be reused or changed after the write.
    this.originals.set(path, original.existed ? { existed: true, bytes: original.bytes.slice() } : original);
  }

  has(path: string): boolean {
    return this.originals.has(path);
  }

  /** The files the task changed, in the order it first wrote them. */
  paths(): readonly string[] {
    return [...this.originals.keys()];
  }

  /** What Undo must do per file (all remembered files by default): restore the exact bytes, or delete a file the task created. */
  undoPlan(paths: readonly string[] = this.paths()): readonly UndoStep[] {
    return paths.flatMap((path): UndoStep[] => {
      const original = this.originals.get(path);
      if (!original) return [];
      return [original.existed ? { path, action: "restore", bytes: original.bytes } : { path, action: "delete" }];
    });
  }

  /** Forgets files (all by default), after Keep or Undo of those. */
  forget(paths: readonly string[] = this.paths()): void {
    for (const path of paths) this.originals.delete(path);
  }
}

/** Lines added and removed from `before` to `after`, for a file row's "+1 −1". */
export function lineDelta(before: string, after: string): { added: number; removed: number } {
  const changes = lineChanges(linesOf(before), linesOf(after));
  return { added: changes.added.length, removed: changes.removed };
}

/** The lines of `after` (0-based) that the edit from `before` added or changed. */
export function addedLines(before: string, after: string): number[] {
  return [...lineChanges(linesOf(before), linesOf(after)).added];
}

function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(/\r?\n/);
  // A final line break ends the last line; it does not start another.
  if (lines.at(-1) === "") lines.pop();
  return lines;
}
