import * as vscode from "vscode";
import type { CodeAttachment } from "../../core/chat/conversation";
import { hasErrors, type PromptFile } from "../../core/customization/prompt-file";
import { inputVariables, inputsFromArgument, linkedFiles, promptMessage, resolveVariables } from "../../core/customization/prompt-variables";
import { folderFor, workspacePath } from "../context/workspace-path";
import type { Loaded } from "./customization-files";
import { describeFirstError } from "./customization-diagnostics";

/** A prompt file made ready to send: the message, the files its links attach, and how to run it. */
export interface PreparedPrompt {
  readonly text: string;
  readonly attachments: readonly CodeAttachment[];
  /** Files the links name that could not be attached, and why. */
  readonly notes: readonly string[];
  readonly agent?: string;
  readonly tools?: readonly string[];
  readonly models: readonly string[];
}

export interface PromptFileDeps {
  /** The editor whose selection and file the variables read. */
  readonly editor: () => vscode.TextEditor | undefined;
  /** A workspace file as an attachment (asks first for a sensitive one; throws when it may not go). */
  readonly attachFile: (uri: vscode.Uri) => Promise<CodeAttachment>;
  /** Asks first when the selection comes from a sensitive file; throws when it may not go. */
  readonly allowSelection: (uri: vscode.Uri) => Promise<void>;
}

/**
 * Reads a prompt file's inputs (from `name=value` words of the argument, else an input box each),
 * resolves its variables and attaches the files it links. Throws a readable error for a file with
 * bad front matter; undefined when the user cancelled an input box (nothing is sent).
 */
export async function preparePrompt(file: Loaded<PromptFile>, argument: string, deps: PromptFileDeps): Promise<PreparedPrompt | undefined> {
  const prompt = file.value;
  if (hasErrors(prompt)) throw new Error(`/${prompt.name} was not sent: its front matter has an error (${describeFirstError(prompt.source, prompt.problems)}). Fix it in the file (see Problems).`);
  const inputs = inputVariables(prompt.body);
  const given = inputsFromArgument(argument, inputs);
  const values: Record<string, string> = { ...given.values };
  for (const input of inputs) {
    if (Object.hasOwn(values, input.name)) continue;
    const value = await vscode.window.showInputBox({ title: `/${prompt.name}: ${input.name}`, prompt: `${input.name} for the prompt file ${prompt.source}`, placeHolder: input.placeholder, ignoreFocusOut: true });
    if (value === undefined) return undefined;
    values[input.name] = value;
  }
  const editor = deps.editor();
  const selection = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : "";
  if (selection !== "" && /\$\{(selection|selectedText)\}/.test(prompt.body)) await deps.allowSelection(editor!.document.uri);
  // A workspace folder's prompt file works in that folder; one of the user's, in the editor's.
  const folder = file.folder !== undefined ? vscode.workspace.workspaceFolders?.[file.folder] : folderFor(editor?.document.uri);
  const facts = {
    selection,
    ...(editor ? { file: workspacePath(editor.document.uri) || editor.document.uri.fsPath } : {}),
    ...(folder ? { workspaceFolder: folder.uri.fsPath } : {}),
  };
  const text = promptMessage(resolveVariables(prompt.body, facts, values), given.rest);
  const attachments: CodeAttachment[] = [];
  const notes: string[] = [];
  for (const target of linkedFiles(prompt.body)) {
    const uri = linkTarget(file.uri, target, folder?.uri);
    try {
      const stat = await vscode.workspace.fs.stat(uri);
      if (!(stat.type & vscode.FileType.File)) continue;
      attachments.push(await deps.attachFile(uri));
    } catch (error) {
      const missing = error instanceof vscode.FileSystemError || (error as { code?: string }).code === "FileNotFound";
      notes.push(missing ? `${target} (linked from ${prompt.source}) was not found: not attached.` : (error as Error).message);
    }
  }
  return { text, attachments, notes, ...(prompt.agent ? { agent: prompt.agent } : {}), ...(prompt.tools ? { tools: prompt.tools } : {}), models: prompt.models };
}

/** A link's file: relative to the prompt file's folder; a leading `/` means its workspace folder. */
function linkTarget(promptFile: vscode.Uri, target: string, root: vscode.Uri | undefined): vscode.Uri {
  if (target.startsWith("/") && root) return vscode.Uri.joinPath(root, target);
  return vscode.Uri.joinPath(promptFile, "..", target);
}
