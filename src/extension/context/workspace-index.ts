import { stat } from "node:fs/promises";
import * as vscode from "vscode";
import { ExcludeGlobs } from "../../core/context/exclude-globs";
import { Bm25Index } from "../../core/context/bm25-index";
import { chunkText } from "../../core/context/chunker";
import { namesExplicitly } from "../../core/context/sensitive-files";
import { slicedLoop } from "../../core/context/sliced-loop";
import type { Logger } from "../logger";
import type { IgnoreRules, WorkspaceIgnoreRules } from "./ignore-rules";
import type { SensitiveFileRules } from "./sensitive-file-rules";
import { folderFiles, type LetIn } from "./folder-files";
import { readTextFile, type TextFile, type TextFileLimits } from "./text-files";
import { workspacePath, workspaceUris } from "./workspace-path";

export interface WorkspaceIndexOptions extends TextFileLimits {
  /** Most files indexed: a bigger workspace is indexed in part, and the log says so. */
  readonly maxFiles: number;
  /** How long indexing runs before it lets the extension host do other work, in ms. */
  readonly sliceMs: number;
  /** Reads a file's text (default readTextFile); a test wraps it to delete the file mid-read. */
  readonly read?: (uri: vscode.Uri, limits: TextFileLimits) => Promise<TextFile>;
}

/** Bounds the heap: 5,000 files (20 MB of code) take about 90 MB indexed (npm run bench). */
export const defaultIndexOptions: WorkspaceIndexOptions = { maxFiles: 10_000, maxBytes: 256 * 1024, sliceMs: 8 };

export interface IndexStatus {
  readonly state: "off" | "indexing" | "ready";
  readonly files: number;
  readonly chunks: number;
  /** Workspace searches (findFiles) made since the window opened: a full build makes one; a new file or folder none (unless a files.exclude pattern has a sibling condition). */
  readonly searches: number;
  /** Files read since the window opened: a build again after a rule changed reads only what changed. */
  readonly reads: number;
}

/**
 * The lexical index of the workspace's files, built in the background (in short slices, so typing
 * never waits for it) and kept current on save, create and delete. Respects .gitignore and
 * files.exclude; skips large and binary files. Sensitive files (wisp.sensitiveFiles, .wispignore)
 * are never read: only their paths are kept, for an @ mention that names one. A changed file is
 * judged by the same rules from its path alone (no search of the workspace per change). Files are
 * held under the paths the chat shows (workspace-path.ts): in a multi-root workspace, two folders'
 * src/index.ts are two files.
 */
export class WorkspaceIndex implements vscode.Disposable {
  readonly index = new Bm25Index();
  private readonly disposables: vscode.Disposable[] = [];
  private ignoreRules = new Map<string, IgnoreRules>();
  /** The build whose rules `ignoreRules` holds: until the current build has its own, no file is added. */
  private rulesGeneration = 0;
  /** Each folder's files.exclude, as the search applies it (kept until the setting changes). */
  private readonly excludes = new Map<string, ExcludeGlobs>();
  private searches = 0;
  private reads = 0;
  /** Bumped by every forget and drop (a delete event, a file left out, a rescan finding it gone): a read under way meanwhile checks the disk. */
  private forgets = 0;
  private readonly sensitivePaths = new Set<string>();
  /** When each indexed file was read (ms): a folder's rescan reads again only what changed since. */
  private readonly readAt = new Map<string, number>();
  private state: IndexStatus["state"] = "off";
  private generation = 0;
  /** The paths the build under way has taken in (read, or known sensitive); the rest go at its end. */
  private building: Set<string> | undefined;
  private readonly stateChanged = new vscode.EventEmitter<IndexStatus["state"]>();
  /** The index was built ("ready") or turned off: what was found in it before may have changed. */
  readonly onDidChangeState = this.stateChanged.event;

  constructor(
    private readonly log: Logger,
    private readonly sensitive: SensitiveFileRules,
    private readonly gitignores: WorkspaceIgnoreRules,
    private readonly options: WorkspaceIndexOptions = defaultIndexOptions,
  ) {
    const watcher = vscode.workspace.createFileSystemWatcher("**/*");
    this.disposables.push(
      this.stateChanged,
      watcher,
      watcher.onDidCreate((uri) => void this.update(uri, "create")),
      watcher.onDidChange((uri) => void this.update(uri, "change")),
      watcher.onDidDelete((uri) => void this.deleted(uri)),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("files.exclude")) this.excludes.clear();
      }),
      sensitive.onDidChange(() => {
        if (this.state !== "off") void this.rebuild();
      }),
      // A .gitignore, files.exclude or the folders changed: built again (once, not per listener).
      gitignores.onDidChange(() => {
        if (this.state !== "off") void this.rebuild();
      }),
    );
  }

  status(): IndexStatus {
    return { state: this.state, files: this.index.fileCount, chunks: this.index.chunkCount, searches: this.searches, reads: this.reads };
  }

  /**
   * Builds the index again, with progress in the status bar; a newer build supersedes it. The
   * index keeps answering meanwhile (a rebuild comes on any rule change, and an empty index would
   * offer nothing for its length): each file is replaced as it is read, what the new rules leave
   * out goes as soon as they are known, and what the build did not list goes at its end.
   */
  async rebuild(): Promise<void> {
    const generation = ++this.generation;
    const seen = new Set<string>();
    this.building = seen;
    this.setState("indexing");
    // At once, before anything is awaited: text of a file that is now sensitive is never offered.
    for (const path of [...this.index.paths()]) if (this.inSomeFolder(path, (uri) => this.sensitive.isSensitive(uri))) this.keepPathOnly(path);
    const started = performance.now();
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: "Wisp: indexing workspace" }, async (progress) => {
      const folders = vscode.workspace.workspaceFolders ?? [];
      const rules = new Map(await Promise.all(folders.map(async (f) => [f.uri.toString(), await this.gitignores.rules(f)] as const)));
      // A newer build started meanwhile: its rules are the ones to keep, even if these came later.
      if (generation !== this.generation) return;
      this.ignoreRules = rules;
      this.rulesGeneration = generation;
      // A path the folders now name otherwise (a folder added or removed) goes too: the search brings the file back under its new one.
      for (const path of this.knownPaths()) {
        if (this.inSomeFolder(path, (uri, folder) => this.workspacePath(uri) !== path || this.excludesOf(folder).verdict(folderRelative(uri)) === "excluded")) this.drop(path);
      }
      // No exclude argument: findFiles then applies files.exclude itself.
      this.searches++;
      let uris = await vscode.workspace.findFiles("**/*", undefined, this.options.maxFiles + 1);
      if (generation !== this.generation) return;
      // The search knows no .gitignore: past the limit, an ignored folder's files (node_modules)
      // may have taken the places of the project's own. Listed from the disk, such folders are not entered.
      if (uris.length > this.options.maxFiles && uris.some((uri) => this.workspacePath(uri) === undefined)) {
        uris = (await Promise.all(folders.map((f) => folderFiles(f.uri, this.letIn(f), this.options.maxFiles + 1)))).flat();
        if (generation !== this.generation) return;
      }
      if (uris.length > this.options.maxFiles) this.log.warn(`context: the workspace has more than ${this.options.maxFiles} files; indexing the first ${this.options.maxFiles}`);
      const files = uris.slice(0, this.options.maxFiles);
      await slicedLoop(files, (uri) => this.refresh(uri, generation), {
        sliceMs: this.options.sliceMs,
        yieldToHost: () => new Promise((resolve) => setImmediate(resolve)),
        onSlice: (done) => {
          progress.report({ message: `${done}/${files.length} files` });
          return generation === this.generation;
        },
      });
    });
    if (generation !== this.generation) return;
    // Gone, or listed no more (files.exclude, the file limit), since the build before.
    for (const path of this.knownPaths()) if (!seen.has(path)) this.drop(path);
    this.building = undefined;
    this.setState("ready");
    this.log.info(`context: indexed ${this.index.fileCount} files (${this.index.chunkCount} chunks) in ${Math.round(performance.now() - started)} ms`);
  }

  /** Stops and empties the index (the setting was turned off). */
  clear(): void {
    this.empty();
    this.setState("off");
  }

  /** The workspace-relative path of a file the index may hold and Wisp may offer, or undefined when it is left out. */
  relativePath(uri: vscode.Uri): string | undefined {
    return this.sensitive.isSensitive(uri) ? undefined : this.workspacePath(uri);
  }

  /** Sensitive files of the workspace (never read) whose name or path the query starts. */
  sensitiveNamed(query: string): string[] {
    return [...this.sensitivePaths].filter((path) => namesExplicitly(query, path));
  }

  dispose(): void {
    this.generation++;
    for (const d of this.disposables) d.dispose();
  }

  /** The workspace path (as the chat shows it) of a file (or folder) in the workspace that .gitignore lets in, else undefined. */
  private workspacePath(uri: vscode.Uri, isFolder = false): string | undefined {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    // The folder itself is no path in it (asRelativePath gives its absolute path, which the rules refuse).
    if (folder === undefined || uri.scheme !== "file" || uri.path.replace(/\/$/, "") === folder.uri.path.replace(/\/$/, "")) return undefined;
    const path = folderRelative(uri);
    // Git reads a folder as `path/`: `node_modules/` leaves the folder out.
    return this.ignoreRules.get(folder.uri.toString())?.ignores(isFolder ? `${path}/` : path) ? undefined : workspacePath(uri);
  }

  /**
   * Adds a file as of build `generation`. Once a newer build has started, or while the build has
   * not read its rules yet, the file is left to the build, whose search comes after its rules and
   * lists every file there is by then.
   */
  private async add(uri: vscode.Uri, generation: number): Promise<void> {
    if (generation !== this.generation || this.rulesGeneration !== generation) return;
    const path = this.workspacePath(uri);
    if (path === undefined) return;
    this.building?.add(path);
    if (this.sensitive.isSensitive(uri)) return this.keepPathOnly(path);
    this.sensitivePaths.delete(path);
    const readAt = Date.now();
    this.reads++;
    const forgets = this.forgets;
    const file = await (this.options.read ?? readTextFile)(uri, this.options).catch(() => undefined);
    // A file deleted while it was read may have had its delete event handled first, with nothing
    // to forget yet: when anything was forgotten meanwhile, the disk decides.
    const there = file !== undefined && (forgets === this.forgets || (await onDisk(uri)) !== undefined);
    if (generation !== this.generation) return;
    if (there) {
      // A binary or too large file is known by its path (file lists, @-mentions), with no text to find it by.
      this.index.setFile(path, file.kind === "text" ? chunkText(path, file.text) : []);
      this.readAt.set(path, readAt);
    } else this.index.removeFile(path);
  }

  private async update(uri: vscode.Uri, event: "create" | "change"): Promise<void> {
    if (this.state === "off") return;
    // New rules, and the index built again with them. The rules' own watcher hears of it too, but
    // may miss a .gitignore written into a folder just made (one invalidation for both, coalesced).
    if (uri.path.endsWith("/.gitignore")) return this.gitignores.invalidate();
    const generation = this.generation;
    // Left out by .gitignore.
    const path = this.workspacePath(uri);
    if (path === undefined) return;
    // A file the index holds got in past files.exclude, and a change of files.exclude rebuilds the index.
    if (event === "change" && this.index.has(path)) return this.add(uri, generation);
    // A folder is no file to add or forget (findFiles never lists it: taken for a file, its event
    // made the index forget everything in it). A new folder's files may come with no events of
    // their own, and a folder removed and made again at once is reported as changed, its new files
    // with no events (in 4 of 7 runs of six rounds here): its event stands for its files.
    const now = await onDisk(uri);
    // Gone by now, whatever the event said: the watcher may report a folder removed right after it
    // was made as created, or not at all, and then this event is the last word on what it held.
    if (now === undefined) return this.forget(uri);
    if (now.folder) return this.scanFolder(uri, generation);
    if (!(await this.included(uri))) return this.forget(uri);
    await this.add(uri, generation);
  }

  /**
   * The watcher coalesces a burst's events per path, and a folder removed and made again at once
   * (`rm -rf out && mkdir out && ...`) has had files that exist reported deleted, in 6 of 15 rounds
   * here: the disk decides. What is still there is taken for new (a folder: its files listed again).
   */
  private async deleted(uri: vscode.Uri): Promise<void> {
    if (this.state === "off") return;
    if ((await onDisk(uri)) !== undefined) return this.update(uri, "create");
    if (uri.path.endsWith("/.gitignore")) this.gitignores.invalidate();
    else this.forget(uri);
  }

  /**
   * Takes in a folder's files as the full build would list them (.gitignore and files.exclude
   * judged by path, as for a new file: no workspace search), unless .gitignore leaves the folder
   * out: adds the new and the changed, and forgets those the index holds there that are gone.
   * (Some platforms report a folder changed whenever a file in it is made: the files the index
   * holds as they are are not read again.)
   */
  private async scanFolder(uri: vscode.Uri, generation: number): Promise<void> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const path = this.workspacePath(uri, true);
    if (folder === undefined || path === undefined) return;
    const files = await folderFiles(uri, this.letIn(folder), this.options.maxFiles);
    if (generation !== this.generation) return;
    const listed = new Set(files.map((file) => workspacePath(file)));
    // A folder made in one go (a clone, an unpacked archive) may bring a .gitignore with no event of its own.
    const rules = this.ignoreRules.get(folder.uri.toString());
    if (files.map(folderRelative).some((file) => /(^|\/)\.gitignore$/.test(file) && !rules?.readFrom(file))) return this.gitignores.invalidate();
    const prefix = `${path}/`;
    for (const known of this.knownPaths()) {
      // Asked of the disk too: a file made since the listing is not gone.
      if (known.startsWith(prefix) && !listed.has(known) && (await onDisk(workspaceUris(known)[0] ?? uri)) === undefined) this.drop(known);
    }
    for (const file of files) await this.refresh(file, generation);
  }

  /**
   * Adds a file unless the index holds it as it is on disk (a rule changed, or its folder was
   * reported: its text did not), which costs a stat instead of a read.
   */
  private async refresh(uri: vscode.Uri, generation: number): Promise<void> {
    const path = this.workspacePath(uri);
    const readAt = path !== undefined && this.index.has(path) ? this.readAt.get(path) : undefined;
    // The same millisecond as the read counts as changed: the write may have come after it.
    const unchanged = readAt !== undefined && ((await onDisk(uri))?.modified ?? readAt) < readAt;
    if (!unchanged || generation !== this.generation || this.rulesGeneration !== generation) return this.add(uri, generation);
    this.building?.add(path!);
  }

  private forget(uri: vscode.Uri): void {
    this.forgets++;
    const path = workspacePath(uri);
    const prefix = `${path}/`;
    // A deleted folder takes its files with it.
    for (const known of this.knownPaths()) if (known === path || known.startsWith(prefix)) this.drop(known);
  }

  /** A sensitive file: its text out of the index, its path kept for an @ mention that names it. */
  private keepPathOnly(path: string): void {
    this.index.removeFile(path);
    this.readAt.delete(path);
    this.sensitivePaths.add(path);
  }

  private drop(path: string): void {
    // A folder's rescan drops what is gone from it while reads are under way, as a forget does.
    this.forgets++;
    this.index.removeFile(path);
    this.sensitivePaths.delete(path);
    this.readAt.delete(path);
  }

  /** What a listing of `folder` from the disk takes: what .gitignore and files.exclude let in, as the full build's search would. */
  private letIn(folder: vscode.WorkspaceFolder): LetIn {
    return async (entry, isFolder) => {
      const entryPath = this.workspacePath(entry, isFolder);
      // A folder with a sibling condition over it is looked into: its files are judged one by one.
      return entryPath !== undefined && (isFolder ? this.excludesOf(folder).verdict(folderRelative(entry)) !== "excluded" : await this.included(entry));
    };
  }

  /**
   * Whether files.exclude lets the file in, as the full build's search would: its patterns matched
   * here; only a pattern with a sibling condition (`"when"`) asks the search, which knows the siblings.
   */
  private async included(uri: vscode.Uri): Promise<boolean> {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (folder === undefined) return false;
    const path = folderRelative(uri);
    const verdict = this.excludesOf(folder).verdict(path);
    if (verdict !== "depends-on-siblings") return verdict === "included";
    this.searches++;
    const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, path), undefined, 1);
    return found.length > 0;
  }

  private excludesOf(folder: vscode.WorkspaceFolder): ExcludeGlobs {
    const key = folder.uri.toString();
    let excludes = this.excludes.get(key);
    if (excludes === undefined) {
      excludes = new ExcludeGlobs(vscode.workspace.getConfiguration("files", folder.uri).get<Record<string, unknown>>("exclude"));
      this.excludes.set(key, excludes);
    }
    return excludes;
  }

  /** Forgets every file and stops the build under way. */
  private empty(): void {
    this.generation++;
    this.building = undefined;
    for (const path of this.knownPaths()) this.drop(path);
  }

  /** Every path the index holds: read, or known sensitive. */
  private knownPaths(): string[] {
    return [...this.index.paths(), ...this.sensitivePaths];
  }

  /** Whether `test` holds for the file a path names (one held from before the folders changed may name one in each). */
  private inSomeFolder(path: string, test: (uri: vscode.Uri, folder: vscode.WorkspaceFolder) => boolean): boolean {
    return workspaceUris(path).some((uri) => {
      const folder = vscode.workspace.getWorkspaceFolder(uri);
      return folder !== undefined && test(uri, folder);
    });
  }

  private setState(state: IndexStatus["state"]): void {
    if (state === this.state) return;
    this.state = state;
    this.stateChanged.fire(state);
  }
}

/** The path in its own folder: what .gitignore and files.exclude judge. */
function folderRelative(uri: vscode.Uri): string {
  return vscode.workspace.asRelativePath(uri, false);
}

/** What is at `uri` now, and when it last changed (ms); undefined when nothing is (gone: its delete event forgets what it held). */
async function onDisk(uri: vscode.Uri): Promise<{ folder: boolean; modified: number } | undefined> {
  // A local file is asked of the disk: the editor's file service is a round trip per event.
  if (uri.scheme === "file") return stat(uri.fsPath).then((s) => ({ folder: s.isDirectory(), modified: s.mtimeMs }), () => undefined);
  return vscode.workspace.fs.stat(uri).then(
    (s) => ({ folder: (s.type & vscode.FileType.Directory) !== 0, modified: s.mtime }),
    () => undefined,
  );
}
