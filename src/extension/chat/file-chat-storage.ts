import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";
import type { ChatStorage } from "../../core/chat/chat-store";
import type { Logger } from "../logger";

/**
 * Chats as JSON files in the workspace's storage folder (on the extension host's disk), one file
 * per key. workspaceState reaches the editor's storage lazily (in a browser, seconds later), so a
 * reload soon after an answer could lose it; these files are written when asked, synchronously
 * at shutdown. Each write goes to a temporary file, flushed to disk, renamed over the old one, so
 * a crash or a power cut leaves the previous version rather than half of one. A file is read when
 * its key is asked for: months of chats are not all read at activation, nor all kept in memory.
 */
export class FileChatStorage implements ChatStorage {
  private readonly stored = new Set<string>();
  /** Files that could not be read, renamed aside (kept for the user, never read again). */
  private readonly damaged: string[] = [];

  private constructor(private readonly dir: string, private readonly log: Logger) {}

  /** Lists the stored keys of `dir` (created if missing); an unreadable file is renamed aside when read, not overwritten later. */
  static open(dir: string, log: Logger): FileChatStorage {
    const storage = new FileChatStorage(dir, log);
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (name.endsWith(".json")) storage.stored.add(decodeURIComponent(name.slice(0, -".json".length)));
    }
    return storage;
  }

  get(key: string): unknown {
    if (!this.stored.has(key)) return undefined;
    const name = `${encodeURIComponent(key)}.json`;
    try {
      return JSON.parse(readFileSync(join(this.dir, name), "utf8"));
    } catch (error) {
      this.stored.delete(key);
      // Deleted since it was listed: nothing to keep aside.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.setAside(name, error as Error);
      return undefined;
    }
  }

  keys(): readonly string[] {
    return [...this.stored];
  }

  /** The damaged files kept aside so far, by their new names. */
  setAsideFiles(): readonly string[] {
    return this.damaged;
  }

  /** Small JSON files: written at once (a few ms at most), so the order of writes is the order of calls. */
  update(key: string, value: unknown): Promise<void> {
    const file = join(this.dir, `${encodeURIComponent(key)}.json`);
    try {
      if (value === undefined) {
        this.stored.delete(key);
        rmSync(file, { force: true });
      } else {
        writeDurably(`${file}.tmp`, JSON.stringify(value));
        renameSync(`${file}.tmp`, file);
        this.stored.add(key);
      }
    } catch (error) {
      this.log.error(`chat: could not save ${key}: ${(error as Error).message}`);
    }
    return Promise.resolve();
  }

  /** A later write of the same key would replace the damaged file: it moves aside first. */
  private setAside(name: string, error: Error): void {
    const aside = `${name}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    try {
      renameSync(join(this.dir, name), join(this.dir, aside));
      this.damaged.push(aside);
      this.log.warn(`chat: could not read ${name} (${error.message}); kept it as ${aside} in ${this.dir}`);
    } catch (renameError) {
      this.log.warn(`chat: could not read ${name} (${error.message}) nor move it aside (${(renameError as Error).message})`);
    }
  }
}

/** Without the fsync, a power cut soon after the rename can leave the new name on empty or cut-short bytes. */
function writeDurably(file: string, text: string): void {
  const fd = openSync(file, "w");
  try {
    const bytes = Buffer.from(text, "utf8");
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
