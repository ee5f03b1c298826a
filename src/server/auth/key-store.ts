// API keys: only SHA-256 hashes are stored (keys are random 256-bit secrets, so a fast hash is
// enough), in an owner-only file replaced atomically, and compared in constant time. Changes are
// read-modify-write under a lock, so two at once (here or in another process) both land.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileVersion, writeFileAtomic } from "../atomic-file";
import { withFileLock } from "./file-lock";
import type { KeyInfo, KeyRecords } from "./key-records";

export type { KeyInfo } from "./key-records";

export interface StoredKey extends KeyInfo {
  hash: string;
}

interface KeyFile {
  /** What identifies the file's content: inode, size and times ("none" when there is no file). */
  version: string;
  keys: StoredKey[];
  /** Each key's hash as bytes, compared with a candidate's. */
  hashes: Buffer[];
}

const hashOf = (secret: string) => createHash("sha256").update(secret, "utf8").digest();

/** A new key's secret and what is stored of it (its hash only). */
export function newKey(name: string): { stored: StoredKey; secret: string } {
  const secret = `wisp-${randomBytes(32).toString("base64url")}`;
  const stored: StoredKey = {
    id: `key_${randomBytes(6).toString("hex")}`,
    name,
    prefix: secret.slice(0, 9),
    hash: hashOf(secret).toString("hex"),
    created: Math.floor(Date.now() / 1000),
  };
  return { stored, secret };
}

/** The keys in DATA/keys.json. */
export class KeyStore implements KeyRecords {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, "keys.json");
  }

  /** The file as last read, reused while unchanged (every request checks a key). */
  private cached: KeyFile = { version: "", keys: [], hashes: [] };

  /**
   * The keys as the file holds them now. Every request asks, so the file is read only when it
   * changed: every write (here or by `keys revoke` in another process) renames a new file into
   * place, and an edit changes its size or times, so a key revoked anywhere fails at once. The
   * stat is synchronous: ~2 µs, where a promise's round trip through the thread pool took ~30 µs
   * of CPU (and a read could finish after a newer one and put back a key since revoked).
   */
  private current(): KeyFile {
    const version = fileVersion(this.file);
    if (this.cached.version !== version) {
      const keys = version !== "none" ? (JSON.parse(readFileSync(this.file, "utf8")) as { keys: StoredKey[] }).keys : [];
      this.cached = { version, keys, hashes: keys.map((k) => Buffer.from(k.hash, "hex")) };
    }
    return this.cached;
  }

  /** A copy of the keys to change. */
  private read(): StoredKey[] {
    return this.current().keys.map((k) => ({ ...k }));
  }

  /** Changes queued in this process; the file lock orders them with other processes. */
  private changes: Promise<unknown> = Promise.resolve();

  /** Runs `change` on the current keys alone, and stores what it leaves. */
  private update<T>(change: (keys: StoredKey[]) => T): Promise<T> {
    const run = async () => {
      await mkdir(path.dirname(this.file), { recursive: true, mode: 0o700 });
      return withFileLock(`${this.file}.lock`, async () => {
        const keys = this.read();
        const result = change(keys);
        await this.write(keys);
        return result;
      });
    };
    const done = this.changes.then(run, run);
    this.changes = done.catch(() => undefined);
    return done;
  }

  /** A crash mid-write leaves keys.json whole (the old or the new content). */
  private async write(keys: StoredKey[]): Promise<void> {
    await writeFileAtomic(this.file, JSON.stringify({ keys }, null, 2));
  }

  /** Creates a key; the returned secret is shown once and never stored. */
  async create(name: string): Promise<{ key: KeyInfo; secret: string }> {
    const { stored, secret } = newKey(name);
    await this.update((keys) => keys.push(stored));
    const { hash: _hash, ...key } = stored;
    return { key, secret };
  }

  async list(): Promise<KeyInfo[]> {
    return this.current().keys.map(({ hash: _hash, ...info }) => info);
  }

  /** Marks a key revoked; false when no such key. */
  async revoke(id: string): Promise<boolean> {
    return this.update((keys) => {
      const key = keys.find((k) => k.id === id);
      if (key) key.revoked ??= Math.floor(Date.now() / 1000);
      return key !== undefined;
    });
  }

  /** The active key matching `secret`, comparing every stored hash in constant time. */
  async verify(secret: string): Promise<KeyInfo | undefined> {
    const candidate = hashOf(secret);
    const { keys, hashes } = this.current();
    let match: StoredKey | undefined;
    for (let i = 0; i < keys.length; i++) {
      if (timingSafeEqual(candidate, hashes[i]!) && !keys[i]!.revoked) match = keys[i];
    }
    if (!match) return undefined;
    const { hash: _hash, ...info } = match;
    return info;
  }
}
