import * as vscode from "vscode";

export const reviewScheme = "wisp-review";

/** The UTF-8 byte order mark: with it VS Code reads a copy as UTF-8 whatever `files.encoding` says. */
const bom = new Uint8Array([0xef, 0xbb, 0xbf]);

interface CopyFile {
  bytes: Uint8Array;
  mtime: number;
  /** What saving the copy does (saves the real file); none once the copy is being thrown away. */
  save: (() => Promise<void>) | undefined;
}

/**
 * The file system of the review copies (see ReviewCopy): each copy reads as the text it was opened
 * with, and a save of it, by the user or by auto-save, goes to the copy's `save` instead of any disk.
 */
export class ReviewCopies implements vscode.FileSystemProvider {
  private readonly files = new Map<string, CopyFile>();
  private readonly changedEmitter = new vscode.EventEmitter<vscode.FileChangeEvent[]>();

  readonly onDidChangeFile = this.changedEmitter.event;

  /** Makes `uri` a copy holding `text`; `save` runs when VS Code saves it, until `discard`. */
  add(uri: vscode.Uri, text: string, save: () => Promise<void>): void {
    const encoded = new TextEncoder().encode(text);
    const bytes = new Uint8Array(bom.length + encoded.length);
    bytes.set(bom);
    bytes.set(encoded, bom.length);
    this.files.set(uri.toString(), { bytes, mtime: Date.now(), save });
  }

  /** From now on saving the copy does nothing (its editor can then be saved clean and closed). */
  discard(uri: vscode.Uri): void {
    const file = this.files.get(uri.toString());
    if (file) file.save = undefined;
  }

  remove(uri: vscode.Uri): void {
    this.files.delete(uri.toString());
  }

  /**
   * The copy's document closed: a discarded copy goes now. Not before: a save of it can still be
   * under way when its edit ends (a formatter's change stops the edit in the middle of one), and that
   * save must find the copy to write to, or it fails and leaves the tab open, unsaved.
   */
  closed(uri: vscode.Uri): void {
    if (this.files.get(uri.toString())?.save === undefined) this.remove(uri);
  }

  stat(uri: vscode.Uri): vscode.FileStat {
    const { mtime, bytes } = this.file(uri);
    return { type: vscode.FileType.File, ctime: mtime, mtime, size: bytes.byteLength };
  }

  readFile(uri: vscode.Uri): Uint8Array {
    return this.file(uri).bytes;
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array): Promise<void> {
    const file = this.file(uri);
    // Kept as VS Code wrote them, with a later time: its next save then finds the copy as it left it.
    file.bytes = content;
    file.mtime = Math.max(Date.now(), file.mtime + 1);
    await file.save?.();
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  readDirectory(): [string, vscode.FileType][] {
    return [];
  }

  createDirectory(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  delete(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  rename(uri: vscode.Uri): void {
    throw vscode.FileSystemError.NoPermissions(uri);
  }

  dispose(): void {
    this.changedEmitter.dispose();
    this.files.clear();
  }

  private file(uri: vscode.Uri): CopyFile {
    const file = this.files.get(uri.toString());
    if (file === undefined) throw vscode.FileSystemError.FileNotFound(uri);
    return file;
  }
}
