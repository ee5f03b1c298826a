import * as vscode from "vscode";

/** The scheme of the left side of an agent edit's diff: the file as it was before the task. */
export const originalScheme = "wisp-agent-original";

export function originalUri(path: string): vscode.Uri {
  return vscode.Uri.from({ scheme: originalScheme, path: `/${path}` });
}

/** Serves the originals the task's checkpoint holds to VS Code's diff editor (read-only). */
export function registerOriginalContent(original: (path: string) => Promise<Uint8Array | undefined>): vscode.Disposable {
  return vscode.workspace.registerTextDocumentContentProvider(originalScheme, {
    provideTextDocumentContent: async (uri) => {
      const bytes = await original(uri.path.replace(/^\//, ""));
      return bytes === undefined ? "" : new TextDecoder().decode(bytes);
    },
  });
}
