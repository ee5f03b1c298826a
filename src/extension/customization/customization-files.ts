import { homedir } from "node:os";
import * as vscode from "vscode";
import { debounce } from "../../core/base/delay";
import { expandHome } from "../../core/base/home-path";
import { folderQualifiedNames, ownFolderName } from "../../core/context/folder-qualified-names";
import { agentFileSuffixes, parseCustomAgent, type CustomAgent } from "../../core/customization/custom-agent";
import { defaultLocations, fileLocations, locationSettings, type CustomizationKind as Kind } from "../../core/customization/file-locations";
import type { FileProblem } from "../../core/customization/front-matter";
import { hasErrors, parsePromptFile, promptFileSuffix, type PromptFile } from "../../core/customization/prompt-file";
import { instructionsFileSuffix, parseScopedInstructions, type ScopedInstructions } from "../../core/customization/scoped-instructions";
import { isBuiltInCommand } from "../../core/customization/slash-commands";
import { toolAllowList } from "../../core/customization/tool-allow-list";
import type { Logger } from "../logger";
import { folderNames, workspacePath } from "../context/workspace-path";
import { toDiagnostic } from "./customization-diagnostics";

/** A file read from disk: where it is, what it says, where it comes from. */
export interface Loaded<T> {
  readonly uri: vscode.Uri;
  readonly value: T;
  readonly origin: "workspace" | "user";
  /** The workspace folder it is in, by its place in the list (a workspace file's). */
  readonly folder?: number;
  /** Its folder's name, when a file of another folder has the same name (see folder-qualified-names.ts). */
  readonly folderName?: string;
  /** Another file (or a built-in command) has its name: it is never used. */
  readonly shadowed?: boolean;
}

/** A folder read for files of some kinds, and how. */
interface Root {
  readonly dir: vscode.Uri;
  readonly kinds: readonly Kind[];
  readonly origin: "workspace" | "user";
  readonly folder?: number;
  readonly nested?: true;
  readonly anyMarkdown?: true;
  /** A folder a setting adds (not one of Copilot's own): watched by a watcher of its own. */
  readonly added?: true;
}

const locationKeys = Object.values(locationSettings).flat();

const watchedGlob = "**/.github/{prompts,agents,chatmodes}/*.md";
const watchedInstructions = "**/.github/instructions/**/*.md";
/** The folders themselves: a folder created with its files in it may bring one event for the folder only. */
const watchedFolders = "{**/.github,**/.github/prompts,**/.github/agents,**/.github/chatmodes,**/.github/instructions,**/.github/instructions/**}";
/** A path (of a file or of a folder of instructions) whose change may change what is read. */
const ourPath = /\/\.github\/(?:(?:prompts|agents|chatmodes)\/[^/]+\.md|instructions\/.+)$/;
/** Subfolders of `.github/instructions` read, at most: a deeper tree (or a link loop) is not instructions. */
const maxDepth = 8;
/** Typing in an open file reads the files again once the typing pauses this long. */
const typingPauseMs = 300;

/**
 * The prompt files, custom agents and scoped instructions of the workspace (`.github/...`) and of
 * the user's folder (wisp.chat.userPromptsFolder), kept current as they change on disk, with their
 * problems shown in the files themselves.
 */
export class CustomizationFiles implements vscode.Disposable {
  private promptFiles: Loaded<PromptFile>[] = [];
  private agentFiles: Loaded<CustomAgent>[] = [];
  private instructionFiles: Loaded<ScopedInstructions>[] = [];
  /** Files whose reading failed (a bug of Wisp's): shown as such, the others still used. */
  private unreadable: { uri: vscode.Uri; problem: FileProblem }[] = [];
  private readonly diagnostics = vscode.languages.createDiagnosticCollection("wisp-customization");
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private userWatcher: vscode.Disposable | undefined;
  /** Watches the folders VS Code's settings add (chat.promptFilesLocations …). */
  private locationWatcher: vscode.Disposable | undefined;
  private loading: Promise<void> = Promise.resolve();
  private generation = 0;
  /** A reload for what was typed in an open file, not saved: its problems show, and running it runs what is there. */
  private readonly typed = debounce(() => void this.reload(), typingPauseMs);
  /** Fires after the files were read again. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly userFolder: () => string,
    private readonly log: Logger,
  ) {
    const files = vscode.workspace.createFileSystemWatcher(watchedGlob);
    const instructions = vscode.workspace.createFileSystemWatcher(watchedInstructions);
    const folders = vscode.workspace.createFileSystemWatcher(watchedFolders, false, true, false);
    const reload = () => void this.reload();
    this.disposables.push(
      this.typed,
      this.diagnostics,
      this.changed,
      files,
      files.onDidCreate(reload),
      files.onDidChange(reload),
      files.onDidDelete(reload),
      instructions,
      instructions.onDidCreate(reload),
      instructions.onDidChange(reload),
      instructions.onDidDelete(reload),
      folders,
      folders.onDidCreate(reload),
      folders.onDidDelete(reload),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.locationsChanged()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (locationKeys.some((key) => event.affectsConfiguration(key))) this.locationsChanged();
      }),
      // What is saved, created, renamed or deleted in VS Code counts at once, without waiting for the watcher.
      vscode.workspace.onDidSaveTextDocument((document) => this.reloadIfOurs([document.uri])),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0 && this.isOurs([event.document.uri])) this.typed();
      }),
      // Closed without saving: the file on disk counts again.
      vscode.workspace.onDidCloseTextDocument((document) => this.reloadIfOurs([document.uri])),
      vscode.workspace.onDidCreateFiles((event) => this.reloadIfOurs(event.files)),
      vscode.workspace.onDidDeleteFiles((event) => this.reloadIfOurs(event.files)),
      vscode.workspace.onDidRenameFiles((event) => this.reloadIfOurs(event.files.flatMap((f) => [f.oldUri, f.newUri]))),
    );
    this.watchUserFolder();
    this.watchLocations();
    void this.reload();
  }

  /** Resolves once the files on disk now have been read. */
  ready(): Promise<void> {
    return this.loading;
  }

  /** Resolves once the files have been read as they are now, with what was just typed in an open one. */
  async current(): Promise<void> {
    this.typed.flush();
    // A reload started meanwhile (a save, the watcher) supersedes the one awaited: wait for the last.
    for (let loading = this.loading; ; loading = this.loading) {
      await loading;
      if (loading === this.loading) return;
    }
  }

  /** The user folder setting changed: watch the new one and read again. */
  userFolderChanged(): void {
    this.watchUserFolder();
    void this.reload();
  }

  /** Prompt files by command name (the workspace's before the user's), broken ones included: running one says what is wrong. */
  prompts(): readonly Loaded<PromptFile>[] {
    return this.promptFiles.filter((p) => !p.shadowed);
  }

  prompt(name: string): Loaded<PromptFile> | undefined {
    return this.prompts().find((p) => p.value.name === name);
  }

  /** The custom agents that can be used (broken files are left out of the switch). */
  agents(): readonly CustomAgent[] {
    return this.agentFiles.filter((a) => !a.shadowed && !hasErrors(a.value)).map((a) => a.value);
  }

  /** A custom agent by name: exact first, then regardless of case. */
  agent(name: string): CustomAgent | undefined {
    const usable = this.agents();
    return usable.find((a) => a.name === name) ?? usable.find((a) => a.name.toLowerCase() === name.toLowerCase());
  }

  instructions(): readonly ScopedInstructions[] {
    return this.instructionFiles.map((i) => i.value).filter((i) => !hasErrors(i));
  }

  /** Reads every file again; a later reload supersedes one still running. */
  reload(): Promise<void> {
    const generation = ++this.generation;
    this.loading = this.readAll().then(
      (read) => {
        if (generation !== this.generation) return;
        this.promptFiles = read.prompts;
        this.agentFiles = read.agents;
        this.instructionFiles = read.instructions;
        this.unreadable = read.unreadable;
        this.showProblems();
        this.log.info(`customization: ${read.prompts.length} prompt file(s), ${read.agents.length} agent(s), ${read.instructions.length} instructions file(s)`);
        this.changed.fire();
      },
      (error: unknown) => this.log.error(`customization: reading the files failed: ${(error as Error).message}`),
    );
    return this.loading;
  }

  private reloadIfOurs(uris: readonly vscode.Uri[]): void {
    if (this.isOurs(uris)) void this.reload();
  }

  /** Whether one of the paths is (or may hold) one of the files read. */
  private isOurs(uris: readonly vscode.Uri[]): boolean {
    const user = this.userFolderUri()?.path;
    const added = this.roots().filter((root) => root.added).map((root) => root.dir.path);
    const inFolder = (uri: vscode.Uri, folder: string) => uri.path.startsWith(`${folder}/`) && kindOf(uri.path.slice(uri.path.lastIndexOf("/") + 1)) !== undefined;
    return uris.some((uri) => ourPath.test(uri.path) || (user !== undefined && inFolder(uri, user)) || added.some((folder) => inFolder(uri, folder)));
  }

  /** The folders or the settings that name more of them changed: watch them and read again. */
  private locationsChanged(): void {
    this.watchLocations();
    void this.reload();
  }

  dispose(): void {
    this.userWatcher?.dispose();
    this.locationWatcher?.dispose();
    for (const d of this.disposables) d.dispose();
  }

  /**
   * The folders read, in order: each workspace folder's (Copilot's own, then those the settings
   * add), then the absolute ones the settings name, then the user's own folder.
   */
  private roots(): Root[] {
    const roots: Root[] = [];
    const absolute: Root[] = [];
    // Window settings (as VS Code registers them): the same for every folder.
    const settings = vscode.workspace.getConfiguration();
    const locations = fileLocations((key) => settings.get(key));
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
      for (const location of locations) {
        const { path, kind, absolute: isAbsolute, ...how } = location;
        const added = defaultLocations.some((d) => d.kind === kind && d.path === path) ? {} : { added: true as const };
        if (!isAbsolute) roots.push({ dir: vscode.Uri.joinPath(folder.uri, path), kinds: [kind], origin: "workspace", folder: folder.index, ...how, ...added });
        else if (!absolute.some((root) => root.dir.path === homeUri(path).path && root.kinds.includes(kind))) absolute.push({ dir: homeUri(path), kinds: [kind], origin: "user", ...(location.nested ? { nested: true } : {}), added: true });
      }
    }
    const user = this.userFolderUri();
    // The user's own folder reads every kind: a setting naming it too would read its files twice.
    roots.push(...absolute.filter((root) => root.dir.path !== user?.path));
    if (user) roots.push({ dir: user, kinds: ["prompts", "agents", "instructions"], origin: "user" });
    return roots;
  }

  private async readAll(): Promise<{ prompts: Loaded<PromptFile>[]; agents: Loaded<CustomAgent>[]; instructions: Loaded<ScopedInstructions>[]; unreadable: { uri: vscode.Uri; problem: FileProblem }[] }> {
    const roots = this.roots();
    const prompts: Loaded<PromptFile>[] = [];
    const agents: Loaded<CustomAgent>[] = [];
    const instructions: Loaded<ScopedInstructions>[] = [];
    const unreadable: { uri: vscode.Uri; problem: FileProblem }[] = [];
    for (const root of roots) {
      for (const path of await fileNames(root.dir, root.nested ? maxDepth : 0)) {
        const uri = vscode.Uri.joinPath(root.dir, path);
        const name = path.slice(path.lastIndexOf("/") + 1);
        const kind = root.anyMarkdown && name.endsWith(".md") && name.toLowerCase() !== "readme.md" ? "agents" : kindOf(name);
        if (kind === undefined || !root.kinds.includes(kind)) continue;
        const text = await readText(uri);
        if (text === undefined) continue;
        const source = root.origin === "workspace" ? workspacePath(uri) : uri.fsPath;
        const where = { uri, origin: root.origin, ...(root.folder !== undefined ? { folder: root.folder } : {}) };
        try {
          if (kind === "prompts") prompts.push({ ...where, value: withToolWarnings(parsePromptFile(name, source, text), text) });
          else if (kind === "agents") agents.push({ ...where, value: withToolWarnings(parseCustomAgent(name, source, text), text) });
          else instructions.push({ ...where, value: { ...parseScopedInstructions(source, text), ...(root.folder !== undefined ? { folder: root.folder } : {}) } });
        } catch (error) {
          // One file Wisp fails to read must not hide all the others.
          this.log.error(`customization: reading ${source} failed: ${(error as Error).message}`);
          unreadable.push({ uri, problem: { message: `Wisp could not read this file: ${(error as Error).message}`, severity: "error", start: { line: 0, column: 0 }, end: { line: 0, column: 3 } } });
        }
      }
    }
    return { ...withOwnAgents(named(prompts, "prompt file"), named(agents, "agent")), instructions, unreadable };
  }

  private showProblems(): void {
    this.diagnostics.clear();
    for (const file of [...this.promptFiles, ...this.agentFiles, ...this.instructionFiles]) {
      const problems = file.value.problems;
      if (problems.length > 0) this.diagnostics.set(file.uri, problems.map(toDiagnostic));
    }
    for (const { uri, problem } of this.unreadable) this.diagnostics.set(uri, [toDiagnostic(problem)]);
  }

  private userFolderUri(): vscode.Uri | undefined {
    const setting = this.userFolder().trim();
    return setting === "" ? undefined : homeUri(setting);
  }

  /** Watches the folders the settings add, each by a watcher of its own (one may be outside the workspace). */
  private watchLocations(): void {
    this.locationWatcher?.dispose();
    const reload = () => void this.reload();
    const watchers = this.roots()
      .filter((root) => root.added)
      .map((root) => vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(root.dir, root.nested ? "**/*.md" : "*.md")));
    this.locationWatcher = vscode.Disposable.from(...watchers, ...watchers.flatMap((w) => [w.onDidCreate(reload), w.onDidChange(reload), w.onDidDelete(reload)]));
  }

  private watchUserFolder(): void {
    this.userWatcher?.dispose();
    const folder = this.userFolderUri();
    if (folder === undefined) return (this.userWatcher = undefined);
    const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, "*.md"));
    const reload = () => void this.reload();
    this.userWatcher = vscode.Disposable.from(watcher, watcher.onDidCreate(reload), watcher.onDidChange(reload), watcher.onDidDelete(reload));
  }
}

/** A path of the settings as a file URI, `~` being the home folder. */
function homeUri(path: string): vscode.Uri {
  return vscode.Uri.file(expandHome(path, homedir()));
}

function kindOf(name: string): Kind | undefined {
  if (name.endsWith(promptFileSuffix)) return "prompts";
  if (agentFileSuffixes.some((s) => name.endsWith(s))) return "agents";
  if (name.endsWith(instructionsFileSuffix)) return "instructions";
  return undefined;
}

/**
 * The first file of a name wins (the workspace's come first); one of another workspace folder is
 * `FOLDER:NAME` (folder-qualified-names.ts); others are marked and say why they are not used.
 */
function named<T extends { readonly name: string; readonly problems: readonly FileProblem[] }>(files: readonly Loaded<T>[], what: string): Loaded<T>[] {
  const names = folderNames();
  const outcomes = folderQualifiedNames(files.map((f) => ({ name: f.value.name, ...(f.origin === "workspace" ? { folder: f.folder } : {}) })), names, (name) => what === "prompt file" && isBuiltInCommand(name));
  const qualified = new Set(files.filter((_, i) => "qualified" in outcomes[i]!).map((f) => f.value.name));
  return files.map((file, i) => {
    const outcome = outcomes[i]!;
    const folderName = qualified.has(file.value.name) && file.folder !== undefined ? { folderName: names[file.folder]! } : {};
    if ("name" in outcome) return { ...file, ...folderName, value: { ...file.value, name: outcome.name } };
    const message =
      "reserved" in outcome
        ? `/${file.value.name} is one of Wisp's own commands, so this prompt file is not offered: rename the file or give it another name:.`
        : `Another ${what} is already named "${file.value.name}" (${workspacePath(files[outcome.hiddenBy]!.uri)}), so this one is not offered.`;
    return { ...file, shadowed: true, value: { ...file.value, problems: [...file.value.problems, { message, severity: "error" as const, start: { line: 0, column: 0 }, end: { line: 0, column: 3 } }] } };
  });
}

/** A prompt file's agent and an agent's handoffs mean their own folder's agent of that name, when it was qualified. */
function withOwnAgents(prompts: Loaded<PromptFile>[], agents: Loaded<CustomAgent>[]): { prompts: Loaded<PromptFile>[]; agents: Loaded<CustomAgent>[] } {
  const names = new Set(agents.filter((a) => !a.shadowed).map((a) => a.value.name));
  const own = (name: string, folder: number | undefined) => ownFolderName(name, folder, folderNames(), names);
  return {
    prompts: prompts.map((p) => (p.value.agent === undefined ? p : { ...p, value: { ...p.value, agent: own(p.value.agent, p.folder) } })),
    agents: agents.map((a) => ({ ...a, value: { ...a.value, handoffs: a.value.handoffs.map((h) => ({ ...h, agent: own(h.agent, a.folder) })) } })),
  };
}

/** Warnings at the `tools:` key for names Wisp has no tool for. */
function withToolWarnings<T extends { readonly tools?: readonly string[]; readonly problems: readonly FileProblem[] }>(file: T, text: string): T {
  const unknown = file.tools ? toolAllowList(file.tools).unknown : [];
  if (unknown.length === 0) return file;
  const line = text.split(/\r?\n/).findIndex((l) => /^tools\s*:/.test(l));
  const at = { start: { line: Math.max(0, line), column: 0 }, end: { line: Math.max(0, line), column: 5 } };
  const message = `Wisp has no tool named ${unknown.map((u) => `"${u}"`).join(", ")}: not offered (unless an MCP server has that name, which then offers all its tools).`;
  return { ...file, problems: [...file.problems, { message, severity: "warning", ...at }] };
}

/** The files of a folder, and of its subfolders `depth` levels down, as paths relative to it, sorted. */
async function fileNames(dir: vscode.Uri, depth: number): Promise<string[]> {
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(dir);
  } catch {
    return [];
  }
  const names = entries.filter(([, type]) => type & vscode.FileType.File).map(([name]) => name);
  if (depth > 0) {
    for (const [folder] of entries.filter(([, type]) => type === vscode.FileType.Directory)) {
      names.push(...(await fileNames(vscode.Uri.joinPath(dir, folder), depth - 1)).map((name) => `${folder}/${name}`));
    }
  }
  return names.sort();
}

/** The file's text: an open one's with its unsaved changes, as the editor shows it; else the disk's. */
async function readText(uri: vscode.Uri): Promise<string | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open?.isDirty) return open.getText();
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
