import { readFile } from "node:fs/promises";
import * as vscode from "vscode";
import { decodeAsEditor } from "./file-encoding";

/** How long a write waits at most for the editor to reload a file (a slow watcher must not hold Undo for long). */
const reloadTimeoutMs = 5_000;

/**
 * The open, saved documents of files about to be written behind the editor's back (Undo, a
 * checkpoint's restore, Redo), as they read before the write. VS Code reloads such a document when
 * its file watcher reports the change: tens of milliseconds, more under load. Until then the
 * document shows the old text, and whatever reads the editor's text (the agent's next task, the
 * chat's context) reads that. `reloaded()` waits until each one shows something new, or what is
 * on disk, so that the action reports done only once the editor agrees with the disk.
 */
export class DocumentReloads {
  private readonly before: ReadonlyMap<vscode.TextDocument, string>;

  constructor(uris: readonly vscode.Uri[]) {
    const wanted = new Set(uris.map((u) => u.toString()));
    this.before = new Map(vscode.workspace.textDocuments.filter((d) => !d.isDirty && wanted.has(d.uri.toString())).map((d) => [d, d.getText()]));
  }

  /** Resolves once every document has reloaded, was closed, or the wait ran out (false then). */
  reloaded(timeoutMs = reloadTimeoutMs): Promise<boolean> {
    if (this.before.size === 0) return Promise.resolve(true);
    const pending = new Set(this.before.keys());
    return new Promise<boolean>((resolve) => {
      const finish = (done: boolean) => {
        clearTimeout(timer);
        subscriptions.forEach((s) => s.dispose());
        resolve(done);
      };
      const drop = (document: vscode.TextDocument) => {
        if (pending.delete(document) && pending.size === 0) finish(true);
      };
      const timer = setTimeout(() => finish(false), timeoutMs);
      // Listening before looking: a reload during the disk reads below is not missed.
      const subscriptions = [
        vscode.workspace.onDidChangeTextDocument((e) => {
          if (e.document.getText() !== this.before.get(e.document)) drop(e.document);
        }),
        vscode.workspace.onDidCloseTextDocument(drop),
      ];
      for (const [document, text] of this.before) void this.settled(document, text).then((yes) => yes && drop(document));
    });
  }

  /** Already as it should be: reloaded, closed, or the write left the text as the document shows it (or deleted the file, which no reload follows). */
  private async settled(document: vscode.TextDocument, before: string): Promise<boolean> {
    if (document.isClosed || document.getText() !== before) return true;
    const disk = await readFile(document.uri.fsPath).then(
      (bytes) => decodeAsEditor(bytes, document.uri),
      () => undefined,
    );
    return disk === undefined || sameLines(disk, before);
  }
}

function sameLines(a: string, b: string): boolean {
  return a.replace(/\r\n/g, "\n") === b.replace(/\r\n/g, "\n");
}
