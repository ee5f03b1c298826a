import * as vscode from "vscode";
import { workspaceUris } from "./workspace-path";

/**
 * The workspace file a path from the chat names (an answer's code block, Open), or undefined when
 * it leaves the workspace, does not exist, or could be a file in more than one folder.
 */
export async function workspaceFile(path: string): Promise<vscode.Uri | undefined> {
  const found = await Promise.all(workspaceUris(path).map((uri) => vscode.workspace.fs.stat(uri).then((stat) => (stat.type & vscode.FileType.File ? uri : undefined), () => undefined)));
  const files = found.filter((uri): uri is vscode.Uri => uri !== undefined);
  return files.length === 1 ? files[0] : undefined;
}
