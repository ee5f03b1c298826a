import * as vscode from "vscode";
import { agentsFileName } from "../../core/agent/agents-file-name";
import { draftAgentsMd, type WorkspaceFacts } from "../../core/customization/agents-md-draft";
import { agentsFile } from "../agent/agent-rules";
import { workspacePath } from "../context/workspace-path";
import type { EditTarget } from "../edit/edit-target";

export interface InitDeps {
  /** Opens `code` as a reviewed edit of the target's lines (the edit flow of Edit Selection and Apply). */
  readonly apply: (editor: vscode.TextEditor, target: EditTarget, code: string) => Promise<void>;
  /** Fires when an edit ended, with its file and how. */
  readonly ended: vscode.Event<{ readonly file: vscode.TextDocument; readonly end: string | undefined }>;
}

const manifestNames = ["package.json", "Makefile", "makefile", "pyproject.toml", "requirements.txt", "Cargo.toml", "go.mod"];
/** Files counted for the languages line, at most: enough to rank them in a large repository. */
const maxCountedFiles = 5000;

const languageNames: Record<string, string> = {
  ts: "TypeScript", tsx: "TypeScript", js: "JavaScript", jsx: "JavaScript", mjs: "JavaScript", cjs: "JavaScript", py: "Python", go: "Go", rs: "Rust",
  java: "Java", kt: "Kotlin", c: "C", h: "C", cpp: "C++", cc: "C++", hpp: "C++", cs: "C#", rb: "Ruby", php: "PHP", swift: "Swift", sh: "Shell",
};

/**
 * `/init`: drafts AGENTS.md from the workspace folder and opens it as a reviewed edit, as a new
 * file when there is none. Nothing is written before Accept; Accept saves the file. With several
 * folders, the folder is that of `editorFile` (the file the user worked in last), else the one
 * the user picks. Returns what to tell the user.
 */
export async function initAgentsMd(deps: InitDeps, editorFile: vscode.Uri | undefined): Promise<string> {
  const folder = await folderToDraft(editorFile);
  if (folder === null) return "/init drafted nothing: no folder was picked.";
  if (folder === undefined) throw new Error("/init drafts AGENTS.md for a workspace folder: open a folder first.");
  // An agents.md the folder has (any case) gets the sections: a second file beside it would be ignored.
  const uri = vscode.Uri.joinPath(folder.uri, (await agentsFile(folder.uri)) ?? agentsFileName);
  // The name the user knows it by: `beta/AGENTS.md` when there are several folders.
  const name = workspacePath(uri);
  // An AGENTS.md open with unsaved changes: the draft starts from them, or Accept would save the disk's text over them.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  const existing = open ? open.getText() : await readText(uri);
  const draft = draftAgentsMd(await workspaceFacts(folder), existing);
  if (existing !== undefined && draft === existing) return `${name} already has Layout, Build and test and Conventions sections: nothing to add.`;
  // A new file is an untitled document that will be saved as AGENTS.md: nothing exists on disk until Accept.
  const document = await vscode.workspace.openTextDocument(existing === undefined ? uri.with({ scheme: "untitled" }) : uri);
  const editor = await vscode.window.showTextDocument(document, { preview: false });
  const subscription = deps.ended(async ({ file, end }) => {
    if (file !== document) return;
    subscription.dispose();
    if (document.isClosed) return;
    if (end === "accepted") await document.save();
    else if (document.isUntitled && document.getText() === "") await closeTabs(document.uri);
  });
  try {
    await deps.apply(editor, { document, startLine: 0, endLine: Math.max(0, document.lineCount - 1) }, draft);
  } catch (error) {
    subscription.dispose();
    throw error;
  }
  return existing === undefined
    ? `Drafted ${name} from the workspace: review it in the editor; Accept writes the file, Reject writes nothing.`
    : `Drafted the sections ${name} lacks: review them in the editor; Accept adds them, Reject leaves the file as it is.`;
}

/** The folder to draft for; undefined: no folder is open; null: the user dismissed the pick. */
async function folderToDraft(editorFile: vscode.Uri | undefined): Promise<vscode.WorkspaceFolder | undefined | null> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (folders.length <= 1) return folders[0];
  const own = editorFile && vscode.workspace.getWorkspaceFolder(editorFile);
  if (own) return own;
  return (await vscode.window.showWorkspaceFolderPick({ placeHolder: "The folder to draft AGENTS.md for", ignoreFocusOut: true })) ?? null;
}

async function workspaceFacts(folder: vscode.WorkspaceFolder): Promise<WorkspaceFacts> {
  const listed = await vscode.workspace.fs.readDirectory(folder.uri).then((l) => l, () => [] as [string, vscode.FileType][]);
  const entries = listed
    .filter(([name]) => !name.startsWith(".") || name === ".github")
    .map(([name, type]) => (type & vscode.FileType.Directory ? `${name}/` : name))
    .sort();
  const manifests: Record<string, string> = {};
  for (const name of manifestNames) {
    if (!entries.includes(name)) continue;
    const text = await readText(vscode.Uri.joinPath(folder.uri, name));
    if (text !== undefined) manifests[name === "makefile" ? "Makefile" : name] = text;
  }
  const files = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, "**/*"), "**/{node_modules,.git,dist,build,out,target,.venv,venv}/**", maxCountedFiles);
  const counts = new Map<string, number>();
  for (const file of files) {
    const language = languageNames[file.path.slice(file.path.lastIndexOf(".") + 1).toLowerCase()];
    if (language) counts.set(language, (counts.get(language) ?? 0) + 1);
  }
  const languages = [...counts].sort((a, b) => b[1] - a[1]).map(([language, n]) => ({ language, files: n }));
  return { name: folder.name, entries, manifests, languages };
}

/** Closes the tabs of a document left empty (the draft of a new file was rejected). */
async function closeTabs(uri: vscode.Uri): Promise<void> {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString());
  await vscode.window.tabGroups.close(tabs);
}

async function readText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return undefined;
  }
}
