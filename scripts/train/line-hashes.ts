// Near-duplicate detection by lines: two files are near-duplicates when most of the lines of one
// (trimmed, white space collapsed, long enough to mean something) are in the other. Catches a
// package's browser, CommonJS and ESM builds of one module, and vendored copies, that an exact hash misses.
import { createHash } from "node:crypto";

/** Lines as compared: trimmed, inner white space collapsed, at least 12 characters. */
export function lineHashes(text: string): string[] {
  return text
    .split("\n")
    .map((l) => l.trim().replace(/\s+/g, " "))
    .filter((l) => l.length >= 12)
    .map((l) => createHash("sha1").update(l).digest("base64"));
}

/** The lines of every file added so far; a file is a near-duplicate when more than `share` of its lines are among them. */
export class SeenLines {
  private readonly seen = new Set<string>();

  constructor(texts: Iterable<string> = []) {
    for (const text of texts) this.add(text);
  }

  add(text: string, hashes = lineHashes(text)): void {
    for (const h of hashes) this.seen.add(h);
  }

  sharedShare(text: string, hashes = lineHashes(text)): number {
    return hashes.length === 0 ? 0 : hashes.filter((h) => this.seen.has(h)).length / hashes.length;
  }

  /** Adds the file unless it is a near-duplicate of those before it; says whether it was added. */
  addUnlessNearDuplicate(text: string, share: number): boolean {
    const hashes = lineHashes(text);
    if (this.sharedShare(text, hashes) > share) return false;
    this.add(text, hashes);
    return true;
  }
}
