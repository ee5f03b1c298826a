import * as vscode from "vscode";
import { decodeAsEditor } from "./file-encoding";

/** The scheme of the left side of an agent edit's diff: the file as it was before the task. */
export const originalScheme = "wisp-agent-original";

/** `file`, the file now, tells the encoding the original is read in (as the editor reads the file). */
export function originalUri(path: string, file?: vscode.Uri): vscode.Uri {
  return vscode.Uri.from({ scheme: originalScheme, path: `/${path}`, query: file?.toString() ?? "" });
}

/** Serves the originals the task's checkpoint holds to VS Code's diff editor (read-only). */
export function registerOriginalContent(original: (path: string) => Promise<Uint8Array | undefined>): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(originalScheme, {
    provideTextDocumentContent: async (uri) => {
      const bytes = await original(uri.path.replace(/^\//, ""));
      return bytes === undefined ? "" : decodeAsEditor(bytes, uri.query === "" ? undefined : vscode.Uri.parse(uri.query));
    },
  });
}
