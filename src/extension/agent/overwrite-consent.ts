import * as vscode from "vscode";

/** A file an action of the agent's checkpoints is about to write, and whether it changed since the agent last wrote it. */
export interface FileToOverwrite {
  readonly path: string;
  readonly changed: boolean;
}

export type OverwriteAction = "Restore" | "Redo" | "Undo";

const details: Record<OverwriteAction, string> = {
  Restore: "Restoring overwrites those changes; Redo brings them back until the next request.",
  Redo: "Redo overwrites those changes.",
  Undo: "Undo puts back the files as they were before the task, overwriting those changes.",
};

/**
 * Whether `files` (paths under `root`) may be overwritten: yes when none changed since Wisp's agent
 * wrote them; otherwise the user says so in a warning naming them, and nothing happens without a
 * yes. Editors with unsaved changes to them count as changed, and are saved first once allowed:
 * left unsaved, an editor would go on showing its text over the rewritten file, and a later save
 * (auto-save included) would write it back; saved, it reloads the new bytes, and the user's text
 * stays in the file's local history (and for Restore, in what Redo brings back).
 */
export async function mayOverwrite(root: string, files: readonly FileToOverwrite[], action: OverwriteAction): Promise<boolean> {
  const rootUri = vscode.Uri.file(root);
  const paths = new Set(files.map((f) => f.path));
  const unsaved = vscode.workspace.textDocuments.filter((d) => d.isDirty && paths.has(relativeTo(rootUri, d.uri) ?? ""));
  const changed = [...new Set([...files.filter((f) => f.changed).map((f) => f.path), ...unsaved.map((d) => relativeTo(rootUri, d.uri)!)])];
  if (changed.length > 0) {
    const yes: vscode.MessageItem = { title: `${action} Anyway` };
    const shown = changed.length > 5 ? `${changed.slice(0, 5).join(", ")} and ${changed.length - 5} more` : changed.join(", ");
    // A host that refuses dialogs (tests) counts as no.
    const answer = await Promise.resolve(vscode.window.showWarningMessage(`${shown} changed since Wisp's agent wrote ${changed.length === 1 ? "it" : "them"}. ${details[action]}`, { modal: true }, yes)).catch(() => undefined);
    if (answer !== yes) return false;
  }
  for (const document of unsaved) await document.save();
  return true;
}

function relativeTo(root: vscode.Uri, uri: vscode.Uri): string | undefined {
  const base = root.path.replace(/\/$/, "");
  return uri.scheme === "file" && uri.path.startsWith(`${base}/`) ? uri.path.slice(base.length + 1) : undefined;
}
