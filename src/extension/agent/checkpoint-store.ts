import { mkdir, readdir, readFile, rename, rm, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Checkpoint, type FileOriginal } from "../../core/agent/checkpoint";
import type { Logger } from "../logger";
import { hashOf, writeDurably, writeOnce } from "./hashed-blobs";

/** Which task the checkpoint belongs to: the chat and its answer turn. */
export interface CheckpointOwner {
  readonly chatId: string;
  readonly turnId: string;
}

export interface UndoResult {
  readonly done: readonly string[];
  readonly failed: readonly { readonly path: string; readonly reason: string }[];
}

interface Manifest {
  readonly owner: CheckpointOwner;
  /** The folder the paths are in (absent in manifests written before it was kept). */
  readonly root?: string;
  readonly files: readonly { readonly path: string; readonly existed: boolean; readonly blob?: string }[];
}

/**
 * The originals of the files the current task changed, kept on disk in the workspace's storage
 * (so Undo still restores them after a reload), for one task at a time: starting the next task
 * keeps the last one's changes. Each original is a file named by its SHA-256, written once and
 * renamed into place, so a name never holds another file's bytes nor half of its own, whichever
 * manifest a crash leaves.
 */
export class CheckpointStore {
  private checkpoint = new Checkpoint();
  private owner: CheckpointOwner | undefined;
  private folderRoot: string | undefined;
  /** Disk work, one piece after another: a task's clearing of the folder never lands after its first save. */
  private disk: Promise<void> = Promise.resolve();

  private constructor(private readonly folder: string | undefined, private readonly log: Pick<Logger, "warn"> | undefined) {}

  /** The store in `folder` (undefined: kept in memory only), with what an earlier window left. */
  static async open(folder: string | undefined, log?: Pick<Logger, "warn">): Promise<CheckpointStore> {
    const store = new CheckpointStore(folder, log);
    if (folder) await store.load(folder).catch((error: Error) => log?.warn(`agent: reading the last task's checkpoint failed: ${error.message}`));
    return store;
  }

  ownedBy(): CheckpointOwner | undefined {
    return this.owner;
  }

  /** The folder the task worked in: Undo writes there, whatever folder comes first by then. */
  root(): string | undefined {
    return this.folderRoot;
  }

  /**
   * A new task starts: the previous one's originals are forgotten (its changes kept). The folder is
   * cleared and written behind the task's first request (it took 15-60 ms before it on a busy
   * machine); the first edit's save waits for it.
   */
  async begin(owner: CheckpointOwner, root: string): Promise<void> {
    this.checkpoint = new Checkpoint();
    this.owner = owner;
    this.folderRoot = root;
    const folder = this.folder;
    // A failure here shows at the first edit, whose save goes through the same folder.
    void this.queue(async () => {
      if (folder) await rm(folder, { recursive: true, force: true });
      await this.write();
    }).catch(() => undefined);
  }

  /** A changed file's original bytes (empty for one the task created); undefined when not changed. */
  original(path: string): Uint8Array | undefined {
    if (!this.checkpoint.has(path)) return undefined;
    const step = this.checkpoint.undoPlan([path])[0];
    return step?.action === "restore" ? step.bytes : new Uint8Array();
  }

  has(path: string): boolean {
    return this.checkpoint.has(path);
  }

  /** The files the task changed. */
  paths(): readonly string[] {
    return this.checkpoint.paths();
  }

  async remember(path: string, original: FileOriginal): Promise<void> {
    if (this.checkpoint.has(path)) return;
    this.checkpoint.remember(path, original);
    await this.save();
  }

  /**
   * Restores the originals of `paths` (all when undefined) under `root`: exact bytes, created files
   * deleted, a folder removed since made again. A file that cannot be restored (no permission, a
   * folder in its place) stays in the checkpoint for another try, and the others go on.
   */
  async undo(root: string, paths?: readonly string[]): Promise<UndoResult> {
    const done: string[] = [];
    const failed: { path: string; reason: string }[] = [];
    for (const step of this.checkpoint.undoPlan(paths)) {
      const absolute = join(root, step.path);
      try {
        if (step.action === "restore") {
          await mkdir(dirname(absolute), { recursive: true });
          await writeFile(absolute, step.bytes);
        } else await unlink(absolute).catch((error: NodeJS.ErrnoException) => (error.code === "ENOENT" ? undefined : Promise.reject(error)));
        done.push(step.path);
      } catch (error) {
        failed.push({ path: step.path, reason: (error as NodeJS.ErrnoException).code ?? String(error) });
      }
    }
    await this.forget(done);
    return { done, failed };
  }

  async forget(paths?: readonly string[]): Promise<void> {
    this.checkpoint.forget(paths);
    await this.save();
  }

  private save(): Promise<void> {
    return this.queue(() => this.write());
  }

  private queue(work: () => Promise<void>): Promise<void> {
    const done = this.disk.then(work);
    this.disk = done.catch(() => undefined);
    return done;
  }

  /** The originals first, then the manifest naming them, then the originals it no longer names: a crash at any point leaves a manifest whose files all hold what it says. */
  private async write(): Promise<void> {
    if (!this.folder || !this.owner) return;
    const folder = this.folder;
    await mkdir(folder, { recursive: true });
    const files: Manifest["files"][number][] = [];
    for (const step of this.checkpoint.undoPlan()) {
      if (step.action === "delete") {
        files.push({ path: step.path, existed: false });
        continue;
      }
      const blob = `${hashOf(step.bytes)}.bin`;
      await writeOnce(join(folder, blob), step.bytes);
      files.push({ path: step.path, existed: true, blob });
    }
    const manifest: Manifest = { owner: this.owner, files, ...(this.folderRoot === undefined ? {} : { root: this.folderRoot }) };
    await writeDurably(join(folder, "manifest.json"), new TextEncoder().encode(JSON.stringify(manifest)));
    const named = new Set(files.map((f) => f.blob));
    const stale = (await readdir(folder)).filter((name) => (name.endsWith(".bin") && !named.has(name)) || name.endsWith(".tmp"));
    await Promise.all(stale.map((name) => unlink(join(folder, name)).catch(() => undefined)));
  }

  private async load(folder: string): Promise<void> {
    let text: string;
    try {
      text = await readFile(join(folder, "manifest.json"), "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return;
      throw error;
    }
    const manifest = parseManifest(text);
    if (!manifest) return this.setAside(folder);
    this.owner = manifest.owner;
    this.folderRoot = manifest.root;
    const unreadable: string[] = [];
    for (const file of manifest.files) {
      if (!file.existed) {
        this.checkpoint.remember(file.path, { existed: false });
        continue;
      }
      const bytes = file.blob === undefined ? undefined : await readBlob(folder, file.blob);
      if (bytes) this.checkpoint.remember(file.path, { existed: true, bytes });
      else unreadable.push(file.path);
    }
    if (unreadable.length > 0) this.log?.warn(`agent: the last task's originals of ${unreadable.join(", ")} are missing or damaged: Undo leaves those files as they are`);
  }

  /** A manifest that cannot be read: the folder, originals included, is kept aside for the user rather than cleared by the next task. */
  private async setAside(folder: string): Promise<void> {
    const aside = `${folder}.corrupt-${new Date().toISOString().replace(/[:.]/g, "-")}`;
    await rename(folder, aside);
    this.log?.warn(`agent: the last task's checkpoint could not be read (a damaged manifest.json): Undo of that task is not available; its files are kept in ${aside}`);
  }
}

function parseManifest(text: string): Manifest | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const manifest = value as Partial<Manifest> | null;
  if (typeof manifest !== "object" || manifest === null || typeof manifest.owner?.chatId !== "string" || typeof manifest.owner.turnId !== "string" || !Array.isArray(manifest.files)) return undefined;
  const filesOk = manifest.files.every((f) => typeof f === "object" && f !== null && typeof f.path === "string" && typeof f.existed === "boolean");
  return filesOk ? (manifest as Manifest) : undefined;
}

/** A stored original: a plain name in the folder; a hash-named one only when its bytes still have that hash. */
async function readBlob(folder: string, name: string): Promise<Uint8Array | undefined> {
  if (!/^[\w.-]+\.bin$/.test(name)) return undefined;
  const bytes = await readFile(join(folder, name)).then((b) => new Uint8Array(b), () => undefined);
  if (!bytes) return undefined;
  const hashed = /^([0-9a-f]{64})\.bin$/.exec(name);
  // Names such as 0.bin are from before hashes: read as they are.
  return hashed && hashed[1] !== hashOf(bytes) ? undefined : bytes;
}
