import * as vscode from "vscode";
import type { ToolOutcome } from "../../core/agent/agent-loop";
import type { StepReporter } from "../../core/agent/agent-session";
import type { Chunk } from "../../core/context/chunker";
import { IgnoreRules } from "../context/ignore-rules";
import { readTextFile, type TextFile } from "../context/text-files";
import type { Approvals } from "./approvals";
import { resolveContained } from "./contained-path";
import { fileExists } from "../file-exists";
import { maxReadBytes } from "../../core/agent/read-limit";
import { encodedNotUtf8 } from "./file-encoding";

/** A workspace file's text as the agent's tools see it, or why there is none. */
export type WorkspaceText = TextFile | { readonly kind: "missing" };

export interface WorkspaceFileRef {
  readonly uri: vscode.Uri;
  readonly absolute: string;
  /** Workspace-relative, forward slashes ("" for the folder itself), as the model named it. */
  readonly relative: string;
  /** The file's own workspace-relative path: another one when `relative` goes through a link. */
  readonly target: string;
}

/** How a card names the file: through a link, with where it leads (that is what gets read or written). */
export function fileLabel(file: WorkspaceFileRef): string {
  return file.target === file.relative ? file.relative : `${file.relative} (a link to ${file.target})`;
}

export interface AgentWorkspaceDeps {
  readonly folder: vscode.WorkspaceFolder;
  readonly approvals: Approvals;
  readonly isSensitive: (uri: vscode.Uri) => boolean;
  /** The workspace index's chunks of a file, when it has them (fast grep). */
  readonly indexed: (path: string) => readonly Chunk[] | undefined;
  /** The files the workspace index holds, sorted; undefined while it is not ready (or off). */
  readonly indexedPaths: () => string[] | undefined;
  /** The folder's .gitignore rules as kept for the window (undefined: read for this task). */
  readonly ignoreRules?: (folder: vscode.WorkspaceFolder) => Promise<IgnoreRules>;
  readonly askBeforeReads: boolean;
  readonly maxOutputChars: number;
}

/**
 * The workspace as the agent's tools see it: paths the model gives, kept inside the folder
 * (symlinks included); the editor's text for open files; .gitignore and files.exclude honoured
 * in listings and searches; reads of sensitive files asked for. One per task.
 */
export class AgentWorkspace {
  private constructor(
    private readonly deps: AgentWorkspaceDeps,
    private readonly ignores: IgnoreRules,
  ) {}

  static async open(deps: AgentWorkspaceDeps): Promise<AgentWorkspace> {
    return new AgentWorkspace(deps, await (deps.ignoreRules?.(deps.folder) ?? IgnoreRules.load(deps.folder)));
  }

  get root(): string {
    return this.deps.folder.uri.fsPath;
  }

  get maxOutputChars(): number {
    return this.deps.maxOutputChars;
  }

  /** The file a model's path names, or why it cannot be used. */
  async file(path: string): Promise<WorkspaceFileRef | { readonly error: string }> {
    const resolved = await resolveContained(this.root, path);
    if ("error" in resolved) return resolved;
    return { uri: vscode.Uri.file(resolved.absolute), absolute: resolved.absolute, relative: resolved.relative, target: resolved.target };
  }

  uri(relative: string): vscode.Uri {
    return vscode.Uri.joinPath(this.deps.folder.uri, relative);
  }

  relative(uri: vscode.Uri): string | undefined {
    const root = this.deps.folder.uri.path.replace(/\/$/, "");
    if (uri.scheme !== "file" || !uri.path.startsWith(`${root}/`)) return undefined;
    return uri.path.slice(root.length + 1);
  }

  isSensitivePath(relative: string): boolean {
    return this.deps.isSensitive(this.uri(relative));
  }

  /** By its name and by its target's: a link named notes.txt that leads to .env holds .env's secrets. */
  isSensitiveFile(file: WorkspaceFileRef): boolean {
    return this.isSensitivePath(file.relative) || this.isSensitivePath(file.target);
  }

  /** Whether listings and searches leave the path out (.git, .gitignore). Folders end in "/". */
  hidden(relative: string): boolean {
    return relative === ".git/" || this.ignores.ignores(relative);
  }

  indexedPaths(): string[] | undefined {
    return this.deps.indexedPaths();
  }

  indexed(path: string): readonly Chunk[] | undefined {
    const chunks = this.deps.indexed(path);
    return chunks && chunks.length > 0 ? chunks : undefined;
  }

  /** Workspace files matching a glob (files.exclude applied by VS Code, .gitignore here), sorted. */
  async files(glob: string, max: number): Promise<string[]> {
    const uris = await vscode.workspace.findFiles(new vscode.RelativePattern(this.deps.folder, glob), undefined, max);
    return uris
      .map((u) => this.relative(u))
      .filter((p): p is string => p !== undefined && !this.hidden(p))
      .sort();
  }

  /**
   * The text the user sees: the open document's (unsaved edits included), else the file's. A saved
   * document whose file is gone (deleted by Undo or by hand; VS Code keeps its editor open) is missing.
   */
  async text(uri: vscode.Uri): Promise<WorkspaceText> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open && (open.isDirty || (await fileExists(uri)))) return { kind: "text", text: open.getText() };
    if (open) return { kind: "missing" };
    let file: WorkspaceText;
    try {
      file = await readTextFile(uri, { maxBytes: maxReadBytes });
    } catch {
      return { kind: "missing" };
    }
    if (file.kind === "too-large" || !encodedNotUtf8(uri)) return file;
    // Decoded by the editor, in the encoding it gives the file (UTF-16 holds NUL bytes, yet is text).
    const document = await vscode.workspace.openTextDocument(uri).then(
      (d) => d,
      () => undefined,
    );
    return document === undefined ? file : { kind: "text", text: document.getText() };
  }

  /**
   * Asks before a read where the settings say so (a sensitive file; every read with
   * approveReads "ask"). Undefined: go on; otherwise the result the model gets instead.
   */
  async askToRead(file: WorkspaceFileRef, step: StepReporter, signal: AbortSignal): Promise<ToolOutcome | undefined> {
    const sensitive = this.isSensitiveFile(file);
    if (!sensitive && !this.deps.askBeforeReads) return undefined;
    const note = sensitive ? `${fileLabel(file)} matches wisp.sensitiveFiles or .wispignore and may hold secrets.` : "Reads ask first (wisp.agent.approveReads).";
    const answer = await this.deps.approvals.ask(step, `read:${file.relative}`, { note }, signal);
    if (answer === "allow" || answer === "session") {
      step.update({ status: "running" });
      return undefined;
    }
    step.update({ status: answer === "stopped" ? "stopped" : "denied" });
    return { content: answer === "stopped" ? "Not read: the user stopped the task." : `The user denied reading ${file.relative}.`, isError: true };
  }
}

