import { existsSync, readFileSync, realpathSync } from "node:fs";
import { posix, relative, sep } from "node:path";
import * as vscode from "vscode";
import { encryptedPatterns } from "../../core/context/encrypted-files";
import { DEFAULT_SENSITIVE_FILES, SensitiveFiles } from "../../core/context/sensitive-files";
import { fileUriOf } from "../notebook-cell";
import { pathInside } from "../path-inside";

export const sensitiveFilesSetting = "wisp.sensitiveFiles";
const wispignore = ".wispignore";
const gitattributes = ".gitattributes";

/**
 * The files that may hold secrets, for everything that reads files to send them (chat context,
 * the agent's reads): `wisp.sensitiveFiles` plus each workspace folder's `.wispignore`, and the
 * files a `.gitattributes` keeps encrypted (git-crypt), kept current as any of them changes.
 * Read synchronously, so that no read is ever judged by stale rules.
 */
export class SensitiveFileRules implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires after the rules changed (the setting, a .wispignore, the workspace folders). */
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private setting = new SensitiveFiles([]);
  private folders = new Map<string, SensitiveFiles>();
  /** Each folder's `.gitattributes` as the encrypted files it names (null: none), read when first needed. */
  private readonly encrypted = new Map<string, SensitiveFiles | null>();
  /** Whether a folder holds `.git` (a repository's root, where its .gitattributes end), looked at when first needed. */
  private readonly roots = new Map<string, boolean>();

  constructor() {
    this.load();
    const watcher = vscode.workspace.createFileSystemWatcher(`**/{${wispignore},${gitattributes}}`);
    const reload = () => {
      this.load();
      this.changed.fire();
    };
    this.disposables.push(
      this.changed,
      watcher,
      watcher.onDidCreate(reload),
      watcher.onDidChange(reload),
      watcher.onDidDelete(reload),
      vscode.workspace.onDidChangeWorkspaceFolders(reload),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(sensitiveFilesSetting)) reload();
      }),
    );
  }

  /**
   * Whether the file matches the rules of its workspace folder; a file outside the workspace is
   * judged by its name alone, against the setting and every folder's .wispignore. A symbolic link
   * is also judged by the file it leads to: notes.txt linked to .env holds .env's secrets. A
   * notebook's cell is judged as its notebook.
   */
  isSensitive(cellOrFile: vscode.Uri): boolean {
    const uri = fileUriOf(cellOrFile);
    if (this.matches(uri)) return true;
    const target = linkTarget(uri);
    return target !== undefined && this.matches(target);
  }

  private matches(uri: vscode.Uri): boolean {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const matcher = folder && this.folders.get(folder.uri.toString());
    if (folder && matcher) return matcher.isSensitive(posix.relative(folder.uri.path, uri.path)) || this.keptEncrypted(uri);
    const name = posix.basename(uri.path);
    return [this.setting, ...this.folders.values()].some((m) => m.isSensitive(name)) || this.keptEncrypted(uri);
  }

  /**
   * Whether a `.gitattributes` of the file's repository gives it an encrypting driver: in its
   * folder or any on the way up to the repository's root (the folder with `.git`), which may be
   * above the workspace folder (a repository opened from a parent folder) or hold files outside it.
   */
  private keptEncrypted(uri: vscode.Uri): boolean {
    if (uri.scheme !== "file") return false;
    let dir = uri.with({ path: posix.dirname(uri.path) });
    let relativePath = posix.basename(uri.path);
    for (;;) {
      if (this.encryptedIn(dir)?.isSensitive(relativePath)) return true;
      const parent = posix.dirname(dir.path);
      if (parent === dir.path || this.isRepositoryRoot(dir)) return false;
      relativePath = `${posix.basename(dir.path)}/${relativePath}`;
      dir = dir.with({ path: parent });
    }
  }

  private isRepositoryRoot(dir: vscode.Uri): boolean {
    let root = this.roots.get(dir.toString());
    if (root === undefined) this.roots.set(dir.toString(), (root = existsSync(vscode.Uri.joinPath(dir, ".git").fsPath)));
    return root;
  }

  /** The encrypted files a folder's `.gitattributes` names (undefined: none), read when first needed. */
  private encryptedIn(dir: vscode.Uri): SensitiveFiles | undefined {
    let rules = this.encrypted.get(dir.toString());
    if (rules === undefined) {
      const patterns = encryptedPatterns(readIn(dir, gitattributes));
      rules = patterns.length === 0 ? null : new SensitiveFiles(patterns);
      this.encrypted.set(dir.toString(), rules);
    }
    return rules ?? undefined;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private load(): void {
    const configured = vscode.workspace.getConfiguration().get<unknown>(sensitiveFilesSetting, DEFAULT_SENSITIVE_FILES);
    const patterns = Array.isArray(configured) ? configured.filter((p): p is string => typeof p === "string") : DEFAULT_SENSITIVE_FILES;
    this.setting = new SensitiveFiles(patterns);
    this.folders = new Map((vscode.workspace.workspaceFolders ?? []).map((f) => [f.uri.toString(), new SensitiveFiles(patterns, readIn(f.uri, wispignore))]));
    this.encrypted.clear();
    this.roots.clear();
  }
}

/**
 * The file a local path leads to through links, named under its workspace folder when it is in one
 * (the folder may itself be reached through a link); undefined when no link is on the way.
 */
function linkTarget(uri: vscode.Uri): vscode.Uri | undefined {
  const real = uri.scheme === "file" ? realPath(uri.fsPath) : undefined;
  if (real === undefined || real === uri.fsPath) return undefined;
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    const root = folder.uri.scheme === "file" ? realPath(folder.uri.fsPath) : undefined;
    if (root !== undefined && pathInside(root, real)) return vscode.Uri.joinPath(folder.uri, ...relative(root, real).split(sep));
  }
  return vscode.Uri.file(real);
}

function realPath(path: string): string | undefined {
  try {
    return realpathSync.native(path);
  } catch {
    return undefined;
  }
}

/** The folder's .wispignore or .gitattributes; none (or a folder not on this machine's disk) adds no rules. */
function readIn(folder: vscode.Uri, name: string): string {
  if (folder.scheme !== "file") return "";
  try {
    return readFileSync(vscode.Uri.joinPath(folder, name).fsPath, "utf8");
  } catch {
    return "";
  }
}
