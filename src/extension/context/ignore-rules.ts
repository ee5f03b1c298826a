import ignore, { type Ignore } from "ignore";
import * as vscode from "vscode";
import type { Logger } from "../logger";

/**
 * The workspace's .gitignore rules (every .gitignore, each applying below its own folder), so the
 * index and @file never offer what the project keeps out of git.
 */
export class IgnoreRules {
  private constructor(private readonly rules: readonly { path: string; base: string; matcher: Ignore }[]) {}

  /** How many .gitignore files the rules come from. */
  get files(): number {
    return this.rules.length;
  }

  /** Whether the rules were read from this .gitignore (a workspace-relative path). */
  readFrom(path: string): boolean {
    return this.rules.some((rule) => rule.path === path);
  }

  static async load(folder: vscode.WorkspaceFolder): Promise<IgnoreRules> {
    const files = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, "**/.gitignore"), "**/node_modules/**", 200);
    const rules: { path: string; base: string; matcher: Ignore }[] = [];
    for (const uri of files) {
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
      const relative = vscode.workspace.asRelativePath(uri, false);
      const base = relative.includes("/") ? relative.slice(0, relative.lastIndexOf("/") + 1) : "";
      rules.push({ path: relative, base, matcher: ignore().add(text) });
    }
    return new IgnoreRules(rules);
  }

  /** Whether a workspace-relative path (forward slashes) is ignored. */
  ignores(path: string): boolean {
    if (path.startsWith(".git/") || path.includes("/.git/")) return true;
    // A .gitignore's rules are about what is below its own folder, not that folder (which is
    // `sub/` for sub/.gitignore, and an empty path the matcher refuses with an error).
    return this.rules.some(({ base, matcher }) => path.length > base.length && path.startsWith(base) && matcher.ignores(path.slice(base.length)));
  }
}

/**
 * Each workspace folder's .gitignore rules, read once and kept until they may have changed: a
 * .gitignore created, changed or deleted (a file watcher, and the editor's own saves, which it
 * hears of first; the workspace index reports those it finds too), `files.exclude` changed, or
 * the folders changed. Fires after forgetting them (the workspace index is built again on
 * it). Agent tasks and the workspace index share them, instead of searching the workspace for
 * .gitignore files each time.
 */
export class WorkspaceIgnoreRules implements vscode.Disposable {
  private readonly loaded = new Map<string, Promise<IgnoreRules>>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private announcing: NodeJS.Immediate | undefined;

  constructor(private readonly log: Logger) {
    const watcher = vscode.workspace.createFileSystemWatcher("**/.gitignore");
    const forget = () => this.invalidate();
    this.disposables.push(
      watcher,
      this.changed,
      watcher.onDidCreate(forget),
      watcher.onDidChange(forget),
      watcher.onDidDelete(forget),
      vscode.workspace.onDidSaveTextDocument((doc) => {
        if (doc.uri.path.endsWith("/.gitignore")) forget();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(forget),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("files.exclude")) forget();
      }),
    );
  }

  /** The folder's rules: kept, or read now. */
  rules(folder: vscode.WorkspaceFolder): Promise<IgnoreRules> {
    const key = folder.uri.toString();
    let rules = this.loaded.get(key);
    if (rules === undefined) {
      const started = performance.now();
      rules = IgnoreRules.load(folder);
      this.loaded.set(key, rules);
      rules.then(
        (r) => this.log.info(`context: read the .gitignore rules of ${folder.name} (${r.files} file${r.files === 1 ? "" : "s"}) in ${Math.round(performance.now() - started)} ms`),
        () => this.loaded.get(key) === rules && this.loaded.delete(key),
      );
    }
    return rules;
  }

  /**
   * Forgets the rules at once; listeners hear of it once per burst (the watchers here and the
   * workspace index's may report the same .gitignore, and one rebuild of the index is enough).
   */
  invalidate(): void {
    this.loaded.clear();
    if (this.announcing) return;
    this.announcing = setImmediate(() => {
      this.announcing = undefined;
      this.log.info("context: a .gitignore or files.exclude changed: the .gitignore rules are read again when next needed");
      this.changed.fire();
    });
  }

  dispose(): void {
    if (this.announcing) clearImmediate(this.announcing);
    for (const d of this.disposables) d.dispose();
  }
}
