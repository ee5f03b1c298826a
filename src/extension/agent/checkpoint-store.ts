import { mkdir, readFile, rm, unlink, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Checkpoint, type FileOriginal } from "../../core/agent/checkpoint";

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
 * keeps the last one's changes.
 */
export class CheckpointStore {
  private checkpoint = new Checkpoint();
  private owner: CheckpointOwner | undefined;
  private folderRoot: string | undefined;
  /** Disk work, one piece after another: a task's clearing of the folder never lands after its first save. */
  private disk: Promise<void> = Promise.resolve();

  private constructor(private readonly folder: string | undefined) {}

  /** The store in `folder` (undefined: kept in memory only), with what an earlier window left. */
  static async open(folder: string | undefined): Promise<CheckpointStore> {
    const store = new CheckpointStore(folder);
    if (folder) await store.load(folder).catch(() => undefined);
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

  private async write(): Promise<void> {
    if (!this.folder || !this.owner) return;
    await mkdir(this.folder, { recursive: true });
    const files = await Promise.all(
      this.checkpoint.undoPlan().map(async (step, index) => {
        if (step.action === "delete") return { path: step.path, existed: false };
        const blob = `${index}.bin`;
        await writeFile(join(this.folder!, blob), step.bytes);
        return { path: step.path, existed: true, blob };
      }),
    );
    const manifest: Manifest = { owner: this.owner, files, ...(this.folderRoot === undefined ? {} : { root: this.folderRoot }) };
    await writeFile(join(this.folder, "manifest.json"), JSON.stringify(manifest));
  }

  private async load(folder: string): Promise<void> {
    const manifest = JSON.parse(await readFile(join(folder, "manifest.json"), "utf8")) as Manifest;
    this.owner = manifest.owner;
    this.folderRoot = manifest.root;
    for (const file of manifest.files) {
      const original: FileOriginal = file.existed && file.blob ? { existed: true, bytes: new Uint8Array(await readFile(join(folder, file.blob))) } : { existed: false };
      this.checkpoint.remember(file.path, original);
    }
  }
}
