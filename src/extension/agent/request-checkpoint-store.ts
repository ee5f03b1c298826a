import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { mkdir, readFile, readdir, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import {
  beginRequest,
  blobsOf,
  emptyCheckpoints,
  keyOf,
  recordAfter,
  recordUndone,
  redoRecord,
  rememberBefore,
  requestOf,
  restorePlan,
  taskWrites,
  withRedone,
  withRestored,
  type ChatCheckpoints,
  type FileRef,
  type RedoRecord,
  type StateKey,
} from "../../core/agent/request-checkpoints";
import type { ChatTurn } from "../../core/chat/conversation";
import { fileVersion } from "../../server/atomic-file";
import { replaceFileSync } from "../replace-file-sync";
import { hashOf, writeOnce } from "./hashed-blobs";

/** What an edit tool tells the checkpoint of the request it works for. */
export interface RequestRecorder {
  /** Whether the request already holds the file's state before its first write. */
  has(path: string): boolean;
  /** The file's bytes before the request's first write (undefined: there was no file). */
  remember(path: string, bytes: Uint8Array | undefined): Promise<void>;
  /** The request wrote the file: what it holds now is read back (the editor may have saved it its own way). */
  wrote(path: string): Promise<void>;
}

/** A file a restore or a Redo would overwrite, and whether it changed since it was last written by Wisp. */
export interface PlannedFile {
  readonly path: string;
  readonly changed: boolean;
}

interface Manifest {
  readonly version: 1;
  readonly chatId: string;
  readonly checkpoints: ChatCheckpoints;
  /** The folder the paths are in (absent in manifests written before it was kept). */
  readonly root?: string;
}

/**
 * The checkpoints of every agent conversation of the workspace, kept in its storage folder (one
 * JSON file per chat, file contents once each under their SHA-256), so that Restore Checkpoint
 * and Redo still work after a reload. Without a folder they live in memory.
 */
export class RequestCheckpointStore {
  private readonly chats = new Map<string, ChatCheckpoints>();
  /** The folder each chat's checkpoints name files in: restoring writes there, whatever folder comes first by then. */
  private readonly roots = new Map<string, string>();
  private readonly memoryBlobs = new Map<string, Uint8Array>();
  /** Contents being written or restored: never collected, even before the manifest names them. */
  private readonly pinned = new Set<string>();
  /** Each chat's manifest as this window last read or wrote it (fileVersion): another window's write is read again. */
  private readonly seen = new Map<string, string>();

  private constructor(private readonly folder: string | undefined) {}

  /** The store in `folder` with what earlier windows left (read at once: the chat view asks for it synchronously). */
  static open(folder: string | undefined): RequestCheckpointStore {
    const store = new RequestCheckpointStore(folder);
    for (const manifest of readManifests(folder)) store.fresh(manifest.chatId);
    return store;
  }

  get(chatId: string): ChatCheckpoints {
    this.fresh(chatId);
    return this.chats.get(chatId) ?? emptyCheckpoints;
  }

  /** The folder the chat's checkpoints are in; undefined for none, or for a manifest that did not say. */
  rootOf(chatId: string): string | undefined {
    this.fresh(chatId);
    return this.roots.get(chatId);
  }

  /**
   * A request's task starts (or goes on) in `root`: it has a checkpoint, and Redo of an earlier
   * restore is given up. A chat's checkpoints are in one folder: those of a chat that worked in
   * another one (the workspace's folders changed order) go, so that a path never means another file.
   */
  async begin(chatId: string, requestId: string, answerId: string, root?: string): Promise<void> {
    this.fresh(chatId);
    const moved = root !== undefined && this.roots.has(chatId) && this.roots.get(chatId) !== root;
    const before = moved ? emptyCheckpoints : this.get(chatId);
    if (root !== undefined) this.roots.set(chatId, root);
    this.set(chatId, beginRequest(before, requestId, answerId));
    if (before.redo.length > 0 || moved) await this.collect();
  }

  recorder(chatId: string, requestId: string, root: string): RequestRecorder {
    return {
      has: (path) => requestOf(this.get(chatId), requestId)?.files.some((f) => f.path === path) ?? false,
      remember: async (path, bytes) => {
        const ref = bytes === undefined ? ({ existed: false } as const) : { existed: true as const, blob: hashOf(bytes) };
        this.set(chatId, rememberBefore(this.get(chatId), requestId, path, ref), false);
        if (bytes !== undefined) await this.putBlob(bytes);
        this.save(chatId);
      },
      wrote: async (path) => {
        const now = await readState(root, path);
        this.set(chatId, recordAfter(this.get(chatId), requestId, path, now === undefined ? null : hashOf(now)));
      },
    };
  }

  /** The task's Undo put (some of) its files back: they are expected so, not as changed by hand. */
  undone(chatId: string, answerId: string, paths?: readonly string[]): void {
    this.set(chatId, recordUndone(this.get(chatId), answerId, paths));
  }

  /** The task's files (`paths`, or all) that someone changed since it last wrote them: by hand, a command, another program. */
  async changedSinceTask(chatId: string, answerId: string, root: string, paths?: readonly string[]): Promise<Set<string>> {
    const files = taskWrites(this.get(chatId), answerId, paths);
    const changed = await Promise.all(files.map(async (f) => ((await stateKey(root, f.path)) !== f.expected ? [f.path] : [])));
    return new Set(changed.flat());
  }

  /** The files restoring to before `requestId` would put back, and the requests it removes; undefined without a checkpoint. */
  async planRestore(chatId: string, requestId: string, root: string): Promise<{ files: PlannedFile[]; requests: number } | undefined> {
    const plan = restorePlan(this.get(chatId), requestId);
    if (!plan) return undefined;
    const files = await Promise.all(plan.steps.map(async (s) => ({ path: s.path, changed: (await stateKey(root, s.path)) !== s.expected })));
    return { files, requests: plan.requests.length };
  }

  /**
   * Restores every file of the request and the later ones to its bytes before them, keeping what
   * each held for Redo, with the turns removed from the chat (`anchor`: the chat's last turn after).
   * A failed write puts back what was already written and throws.
   */
  async restore(chatId: string, requestId: string, root: string, turns: readonly ChatTurn[], anchor: string): Promise<string[] | undefined> {
    const checkpoints = this.get(chatId);
    const plan = restorePlan(checkpoints, requestId);
    if (!plan) return undefined;
    const files: { path: string; state: FileRef; restored: StateKey }[] = [];
    const pins = new Set<string>();
    try {
      for (const step of plan.steps) {
        const now = await readState(root, step.path);
        const state: FileRef = now === undefined ? { existed: false } : { existed: true, blob: hashOf(now) };
        if (now !== undefined) pins.add(await this.putBlob(now, true));
        files.push({ path: step.path, state, restored: keyOf(step.target) });
      }
      await this.writeAll(root, plan.steps.map((s) => ({ path: s.path, ref: s.target })), files.map((f) => ({ path: f.path, ref: f.state })));
      this.set(chatId, withRestored(checkpoints, { requestId, anchor, turns, files }));
    } finally {
      for (const key of pins) this.pinned.delete(key);
    }
    return plan.steps.map((s) => s.path);
  }

  /** What Redo would bring back while the chat's last turn is still `lastTurnId`, and the files changed since the restore. */
  async planRedo(chatId: string, root: string, lastTurnId: string): Promise<{ record: RedoRecord; files: PlannedFile[] } | undefined> {
    const record = redoRecord(this.get(chatId), lastTurnId);
    if (!record) return undefined;
    const files = await Promise.all(record.files.map(async (f) => ({ path: f.path, changed: (await stateKey(root, f.path)) !== f.restored })));
    return { record, files };
  }

  /** Undoes the latest restore: the files as they were before it; the turns it removed, for the chat. */
  async redo(chatId: string, root: string, lastTurnId: string): Promise<{ turns: readonly ChatTurn[]; paths: string[] } | undefined> {
    const checkpoints = this.get(chatId);
    const record = redoRecord(checkpoints, lastTurnId);
    if (!record) return undefined;
    const undo = await Promise.all(record.files.map(async (f) => ({ path: f.path, ref: await this.currentRef(root, f.path) })));
    await this.writeAll(root, record.files.map((f) => ({ path: f.path, ref: f.state })), undo);
    this.set(chatId, withRedone(checkpoints));
    await this.collect();
    return { turns: record.turns, paths: record.files.map((f) => f.path) };
  }

  /** Forgets the checkpoints of chats that no longer exist, and the contents only they needed. */
  async prune(chatIds: ReadonlySet<string>): Promise<void> {
    const gone = [...this.chats.keys()].filter((id) => !chatIds.has(id));
    for (const id of gone) this.set(id, emptyCheckpoints);
    await this.collect();
  }

  private set(chatId: string, checkpoints: ChatCheckpoints, save = true): void {
    if (checkpoints.requests.length === 0 && checkpoints.redo.length === 0) {
      this.chats.delete(chatId);
      this.roots.delete(chatId);
    } else this.chats.set(chatId, checkpoints);
    if (save) this.save(chatId);
  }

  /** The chat's manifest, written whole to a temporary file renamed over the old one. */
  private save(chatId: string): void {
    const file = this.manifestFile(chatId);
    if (file === undefined) return;
    const checkpoints = this.chats.get(chatId);
    if (!checkpoints) rmSync(file, { force: true });
    else {
      mkdirSync(this.folder!, { recursive: true });
      const root = this.roots.get(chatId);
      replaceFileSync(file, JSON.stringify({ version: 1, chatId, checkpoints, ...(root === undefined ? {} : { root }) } satisfies Manifest));
    }
    this.seen.set(chatId, fileVersion(file));
  }

  /**
   * The chat's checkpoints as its manifest holds them when another window of the workspace wrote
   * it since this one read or wrote it (both went on in the chat): the next request's checkpoint
   * then goes after that window's, not over them.
   */
  private fresh(chatId: string): void {
    const file = this.manifestFile(chatId);
    if (file === undefined) return;
    // Taken before the read: a write in between is read again next time, never missed.
    const version = fileVersion(file);
    if (version === (this.seen.get(chatId) ?? "none")) return;
    this.seen.set(chatId, version);
    const manifest = readManifest(file);
    if (manifest === undefined || manifest.chatId !== chatId) {
      this.chats.delete(chatId);
      this.roots.delete(chatId);
      return;
    }
    this.chats.set(chatId, manifest.checkpoints);
    if (typeof manifest.root === "string") this.roots.set(chatId, manifest.root);
    else this.roots.delete(chatId);
  }

  /** Where the chat's manifest is; undefined in memory, or for an id that is no file name. */
  private manifestFile(chatId: string): string | undefined {
    return this.folder && /^[\w-]{1,128}$/.test(chatId) ? join(this.folder, `${chatId}.json`) : undefined;
  }

  /** Writes each file's target state; on a failure, puts back the ones already written (as `undo` says) and throws. */
  private async writeAll(root: string, targets: readonly { path: string; ref: FileRef }[], undo: readonly { path: string; ref: FileRef }[]): Promise<void> {
    const written: number[] = [];
    try {
      for (const [index, target] of targets.entries()) {
        await this.writeState(root, target.path, target.ref);
        written.push(index);
      }
    } catch (error) {
      for (const index of written) await this.writeState(root, undo[index]!.path, undo[index]!.ref).catch(() => undefined);
      throw error;
    }
  }

  private async writeState(root: string, path: string, ref: FileRef): Promise<void> {
    const absolute = join(root, safePath(path));
    if (!ref.existed) {
      await unlink(absolute).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : Promise.reject(error)));
      return;
    }
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, await this.blob(ref.blob));
  }

  private async currentRef(root: string, path: string): Promise<FileRef> {
    const now = await readState(root, path);
    if (now === undefined) return { existed: false };
    return { existed: true, blob: await this.putBlob(now) };
  }

  /** Stores bytes under their hash (once); `pin` keeps them from collection until unpinned. */
  private async putBlob(bytes: Uint8Array, pin = false): Promise<string> {
    const key = hashOf(bytes);
    if (pin) this.pinned.add(key);
    if (!this.folder) {
      this.memoryBlobs.set(key, bytes.slice());
      return key;
    }
    const file = join(this.folder, "blobs", key);
    await mkdir(dirname(file), { recursive: true });
    await writeOnce(file, bytes);
    return key;
  }

  private async blob(key: string): Promise<Uint8Array> {
    if (!this.folder) {
      const bytes = this.memoryBlobs.get(key);
      if (!bytes) throw new Error(`The checkpoint's copy of a file is missing (${key.slice(0, 12)}).`);
      return bytes;
    }
    return new Uint8Array(await readFile(join(this.folder, "blobs", safePath(key))));
  }

  /** Deletes the stored contents no checkpoint needs any more. */
  private async collect(): Promise<void> {
    const needed = new Set(this.pinned);
    for (const checkpoints of this.chats.values()) for (const key of blobsOf(checkpoints)) needed.add(key);
    if (!this.folder) {
      for (const key of [...this.memoryBlobs.keys()]) if (!needed.has(key)) this.memoryBlobs.delete(key);
      return;
    }
    // Another window of the workspace shares the folder: the copies its checkpoints name (in its
    // manifests, written at each change) are needed too, though this window never read them.
    for (const manifest of readManifests(this.folder)) for (const key of blobsOf(manifest.checkpoints)) needed.add(key);
    const names = await readdir(join(this.folder, "blobs")).catch(() => [] as string[]);
    await Promise.all(names.filter((n) => /^[0-9a-f]{64}$/.test(n) && !needed.has(n)).map((n) => unlink(join(this.folder!, "blobs", n)).catch(() => undefined)));
  }
}

async function readState(root: string, path: string): Promise<Uint8Array | undefined> {
  try {
    return new Uint8Array(await readFile(join(root, safePath(path))));
  } catch (error) {
    // No file there (a folder on the way may be a file now).
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw error;
  }
}

async function stateKey(root: string, path: string): Promise<StateKey> {
  const bytes = await readState(root, path);
  return bytes === undefined ? null : hashOf(bytes);
}

/** A stored path stays inside the folder it is joined to, whatever the manifest holds. */
function safePath(path: string): string {
  if (path === "" || path.startsWith("/") || /^[a-zA-Z]:/.test(path) || path.split(/[\\/]/).includes("..")) throw new Error(`Not a workspace path: ${path}`);
  return path;
}

/** The manifests in `folder` (none without one); a damaged file costs only its chat. */
function readManifests(folder: string | undefined): Manifest[] {
  if (!folder || !existsSync(folder)) return [];
  return readdirSync(folder).flatMap((name) => {
    const manifest = name.endsWith(".json") ? readManifest(join(folder, name)) : undefined;
    return manifest ? [manifest] : [];
  });
}

function readManifest(file: string): Manifest | undefined {
  try {
    const manifest = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return isManifest(manifest) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

function isManifest(value: unknown): value is Manifest {
  if (typeof value !== "object" || value === null) return false;
  const manifest = value as Partial<Manifest>;
  const checkpoints = manifest.checkpoints as Partial<ChatCheckpoints> | undefined;
  return manifest.version === 1 && typeof manifest.chatId === "string" && Array.isArray(checkpoints?.requests) && Array.isArray(checkpoints?.redo);
}
