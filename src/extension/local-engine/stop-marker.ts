import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { processExists } from "../../core/base/process-exists";

/**
 * Wisp: Stop Local Server, said in one window, for the editor's other windows: every window's
 * auto-start would otherwise start the server again as soon as it found it gone, a few seconds
 * after the user stopped it. Kept in the extension's global storage (shared by the windows) with
 * the stopping window's extension host: it holds while that window is open, until any window's
 * Wisp: Start Local Server; a window closed since (or VS Code restarted) leaves auto-start as it was.
 */
export class StopMarker {
  constructor(private readonly file: string, private readonly ownPid = process.pid) {}

  /** This window stopped the server on purpose. */
  mark(): void {
    try {
      mkdirSync(dirname(this.file), { recursive: true });
      writeFileSync(this.file, JSON.stringify({ pid: this.ownPid }));
    } catch {
      // Then only this window knows; the others start it again as before.
    }
  }

  /** A window asked for the server again. */
  clear(): void {
    rmSync(this.file, { force: true });
  }

  /** The pid of another window, still open, that stopped the server on purpose; undefined when none did. */
  byOtherWindow(): number | undefined {
    let pid: unknown;
    try {
      pid = (JSON.parse(readFileSync(this.file, "utf8")) as { pid?: unknown }).pid;
    } catch {
      return undefined;
    }
    return typeof pid === "number" && Number.isInteger(pid) && pid > 0 && pid !== this.ownPid && processExists(pid) ? pid : undefined;
  }
}
