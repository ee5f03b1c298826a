/**
 * Which editor a real-VS-Code run uses: the current code-server, or with WISP_VSCODE_EDITOR=oldest
 * the one of the oldest VS Code package.json's engines.vscode accepts (npm run test:vscode:oldest).
 * Read by the runner, the stand-in `code` executable and the tests module in the extension host.
 */
export type Editor = "current" | "oldest";

export function editorOf(env: NodeJS.ProcessEnv = process.env): Editor {
  const editor = env.WISP_VSCODE_EDITOR ?? "current";
  if (editor !== "current" && editor !== "oldest") throw new Error(`WISP_VSCODE_EDITOR is ${editor}: current or oldest`);
  return editor;
}
