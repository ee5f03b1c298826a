import * as vscode from "vscode";

/** The notebook a cell's document belongs to, and the cell; undefined for any other document. */
export function notebookCellOf(document: vscode.TextDocument): { notebook: vscode.NotebookDocument; cell: vscode.NotebookCell } | undefined {
  if (document.uri.scheme !== "vscode-notebook-cell") return undefined;
  for (const notebook of vscode.workspace.notebookDocuments) {
    const cell = notebook.getCells().find((c) => c.document === document);
    if (cell) return { notebook, cell };
  }
  return undefined;
}

/**
 * The file a document is part of: a notebook cell's notebook (a cell's own URI is in no workspace
 * folder, so paths and the sensitive-file rules would see only its absolute path), else itself.
 */
export function fileUriOf(uri: vscode.Uri): vscode.Uri {
  if (uri.scheme !== "vscode-notebook-cell") return uri;
  const key = uri.toString();
  const notebook = vscode.workspace.notebookDocuments.find((n) => n.getCells().some((c) => c.document.uri.toString() === key));
  // A closed notebook's cell: its notebook has the cell's path, on disk.
  return notebook?.uri ?? uri.with({ scheme: "file", fragment: "" });
}

/** Shows `document`; a notebook cell in its notebook (shown alone, a cell of an untitled notebook opens as a tab of its own). */
export async function showDocument(document: vscode.TextDocument, options: { viewColumn: vscode.ViewColumn | undefined; preserveFocus: boolean }): Promise<void> {
  const at = notebookCellOf(document);
  if (at === undefined) {
    await vscode.window.showTextDocument(document, options);
    return;
  }
  await vscode.window.showNotebookDocument(at.notebook, { ...options, selections: [new vscode.NotebookRange(at.cell.index, at.cell.index + 1)] });
}
