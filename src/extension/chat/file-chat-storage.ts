import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChatStorage } from "../../core/chat/chat-store";
import type { Logger } from "../logger";

/**
 * Chats as JSON files in the workspace's storage folder (on the extension host's disk), one file
 * per key. workspaceState reaches the editor's storage lazily (in a browser, seconds later), so a
 * reload soon after an answer could lose it; these files are written when asked, synchronously
 * at shutdown. Each write goes to a temporary file renamed over the old one, so a crash leaves
 * the previous version rather than half of one.
 */
export class FileChatStorage implements ChatStorage {
  private readonly values = new Map<string, unknown>();

  private constructor(private readonly dir: string, private readonly log: Logger) {}

  /** Reads every stored value of `dir` (created if missing). */
  static open(dir: string, log: Logger): FileChatStorage {
    const storage = new FileChatStorage(dir, log);
    mkdirSync(dir, { recursive: true });
    for (const name of readdirSync(dir)) {
      if (!name.endsWith(".json")) continue;
      try {
        storage.values.set(decodeURIComponent(name.slice(0, -".json".length)), JSON.parse(readFileSync(join(dir, name), "utf8")));
      } catch (error) {
        log.warn(`chat: skipped the unreadable file ${name}: ${(error as Error).message}`);
      }
    }
    return storage;
  }

  get(key: string): unknown {
    return this.values.get(key);
  }

  /** Small JSON files: written at once (a few ms at most), so the order of writes is the order of calls. */
  update(key: string, value: unknown): Promise<void> {
    const file = join(this.dir, `${encodeURIComponent(key)}.json`);
    try {
      if (value === undefined) {
        this.values.delete(key);
        rmSync(file, { force: true });
      } else {
        const text = JSON.stringify(value);
        this.values.set(key, JSON.parse(text));
        writeFileSync(`${file}.tmp`, text);
        renameSync(`${file}.tmp`, file);
      }
    } catch (error) {
      this.log.error(`chat: could not save ${key}: ${(error as Error).message}`);
    }
    return Promise.resolve();
  }
}
