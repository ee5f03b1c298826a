import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { fileVersion } from "../../server/atomic-file";
import type { ChatStorage } from "../../core/chat/chat-store";
import type { Logger } from "../logger";
import { replaceFileSync } from "../replace-file-sync";

/**
 * Chats as JSON files in the workspace's storage folder (on the extension host's disk), one file
 * per key. workspaceState reaches the editor's storage lazily (in a browser, seconds later), so a
 * reload soon after an answer could lose it; these files are written when asked, synchronously
 * at shutdown. Each write goes to a temporary file, flushed to disk, renamed over the old one, so
 * a crash or a power cut leaves the previous version rather than half of one. A file is read when
 * its key is asked for: months of chats are not all read at activation, nor all kept in memory.
 * Another window of the workspace writes the same files: what each file was when this window last
 * read or wrote it is kept (a write renames a new file in, so its identity changes), so that a
 * change made there is noticed (changedElsewhere) before this window writes over it.
 */
export class FileChatStorage implements ChatStorage {
  /** Each key's file as this window last read or wrote it. */
  private readonly seen = new Map<string, string>();
  /** Files that could not be read, renamed aside (kept for the user, never read again). */
  private readonly damaged: string[] = [];

  private constructor(private readonly dir: string, private readonly log: Logger) {}

  /** The storage in `dir` (created if missing); an unreadable file is renamed aside when read, not overwritten later. */
  static open(dir: string, log: Logger): FileChatStorage {
    mkdirSync(dir, { recursive: true });
    return new FileChatStorage(dir, log);
  }

  get(key: string): unknown {
    const name = fileName(key);
    const file = join(this.dir, name);
    // Taken before the read: a write by another window in between is then read again later, never missed.
    const version = fileVersion(file);
    try {
      const value = JSON.parse(readFileSync(file, "utf8")) as unknown;
      this.seen.set(key, version);
      return value;
    } catch (error) {
      this.seen.delete(key);
      // Never stored, or deleted (here or in another window): nothing to keep aside.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") this.setAside(name, error as Error);
      return undefined;
    }
  }

  /** Listed from the folder each time: another window may have stored chats since. */
  keys(): readonly string[] {
    let names: string[];
    try {
      names = readdirSync(this.dir);
    } catch {
      return [];
    }
    // A file this storage did not name (`notes%.json` copied in) is not a key: it must not hide the others.
    return names.filter((name) => name.endsWith(".json")).flatMap((name) => {
      try {
        return [decodeURIComponent(name.slice(0, -".json".length))];
      } catch {
        return [];
      }
    });
  }

  /** Whether the key's file was written or deleted by someone else since this window last read or wrote it. */
  changedElsewhere(key: string): boolean {
    return fileVersion(join(this.dir, fileName(key))) !== (this.seen.get(key) ?? "none");
  }

  /** The damaged files kept aside so far, by their new names. */
  setAsideFiles(): readonly string[] {
    return this.damaged;
  }

  /** Small JSON files: written at once (a few ms at most), so the order of writes is the order of calls. */
  update(key: string, value: unknown): Promise<void> {
    const file = join(this.dir, fileName(key));
    try {
      if (value === undefined) {
        this.seen.delete(key);
        rmSync(file, { force: true });
      } else {
        replaceFileSync(file, JSON.stringify(value));
        this.seen.set(key, fileVersion(file));
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

function fileName(key: string): string {
  return `${encodeURIComponent(key)}.json`;
}
