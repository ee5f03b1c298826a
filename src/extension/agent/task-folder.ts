import * as vscode from "vscode";
import type { ChatTurn } from "../../core/chat/conversation";
import { foldersNamedBy } from "../../core/context/workspace-paths";
import { pathsInPlay } from "../../core/customization/paths-in-play";
import { folderFor, folderNames } from "../context/workspace-path";

/**
 * The folder a task works in (its tools reach that folder only). With several folders: the one
 * the question's files name (the first of them, where they name several), else the one the chat's
 * earlier tasks worked in (its checkpoints name that folder's files), else the editor's, else the
 * first. One folder: always that one. Undefined without a folder.
 */
export function taskFolder(question: ChatTurn | undefined, earlier: vscode.Uri | undefined): vscode.WorkspaceFolder | undefined {
  const named = question?.role === "user" ? foldersNamedBy(pathsInPlay(question), folderNames()) : [];
  const first = named[0];
  if (first !== undefined) return vscode.workspace.workspaceFolders?.[first];
  return (earlier && vscode.workspace.getWorkspaceFolder(earlier)) ?? folderFor(vscode.window.activeTextEditor?.document.uri);
}
