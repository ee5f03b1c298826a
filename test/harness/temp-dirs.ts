import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Temporary folders created for one run and removed together by `removeAll()`. */
export class TempDirs {
  private readonly dirs: string[] = [];

  make(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), `wisp-${prefix}-`));
    this.dirs.push(dir);
    return dir;
  }

  removeAll(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}
