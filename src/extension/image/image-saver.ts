import { randomBytes } from "node:crypto";
import { homedir } from "node:os";
import { isAbsolute } from "node:path";
import * as vscode from "vscode";
import type { ImageExtension } from "../../core/api/images";
import { expandHome } from "../../core/base/home-path";
import { describeSaveFailure } from "../../core/image/describe-save-failure";
import { imageFileName } from "../../core/image/image-file-name";
import { fileExists } from "../file-exists";

/** Where an image goes: a folder to name it in, or a file the user chose. */
export type SaveTarget = { readonly kind: "folder"; readonly folder: vscode.Uri } | { readonly kind: "file"; readonly file: vscode.Uri };

const maxNameAttempts = 100;

/**
 * The folder from `wisp.image.folder`: absolute, under `~`, or in the workspace folder of the
 * active editor (else the first one); without a workspace, asks where to save. Undefined when the
 * dialog is dismissed.
 */
export async function chooseSaveTarget(setting: string, prompt: string, format: ImageExtension, now: Date): Promise<SaveTarget | undefined> {
  // `~` is the home folder, as in Wisp's other folder settings (not a folder named ~ in the workspace).
  const folderSetting = expandHome(setting, homedir());
  if (folderSetting !== "" && isAbsolute(folderSetting)) return { kind: "folder", folder: vscode.Uri.file(folderSetting) };
  const active = vscode.window.activeTextEditor?.document.uri;
  const workspace = (active && vscode.workspace.getWorkspaceFolder(active)) ?? vscode.workspace.workspaceFolders?.[0];
  if (workspace !== undefined) {
    const parts = folderSetting.split(/[\\/]+/).filter((part) => part !== "" && part !== ".");
    return { kind: "folder", folder: vscode.Uri.joinPath(workspace.uri, ...parts) };
  }
  return askForFile(prompt, format, now);
}

/** VS Code's save dialog for the image, in the home folder or beside `near`'s folder. Undefined when dismissed. */
export async function askForFile(prompt: string, format: ImageExtension, now: Date, near?: SaveTarget): Promise<SaveTarget | undefined> {
  const folder = near?.kind === "folder" ? vscode.Uri.joinPath(near.folder, "..") : near?.kind === "file" ? vscode.Uri.joinPath(near.file, "..") : vscode.Uri.file(homedir());
  const file = await vscode.window.showSaveDialog({
    title: "Wisp: save the generated image as",
    defaultUri: vscode.Uri.joinPath(folder, imageFileName(prompt, now, format)),
    filters: { Images: [format] },
    saveLabel: near ? "Save" : "Generate and Save",
  });
  return file === undefined ? undefined : { kind: "file", file };
}

/** Why the image could not be written to `target`, readably (the folder as the workspace names it). */
export function saveFailureMessage(error: unknown, target: SaveTarget): string {
  const where = vscode.workspace.asRelativePath(target.kind === "folder" ? target.folder : vscode.Uri.joinPath(target.file, ".."));
  const code = error instanceof vscode.FileSystemError ? error.code : undefined;
  return describeSaveFailure({ ...(code ? { code } : {}), message: error instanceof Error ? error.message : String(error) }, where);
}

/**
 * Writes the image under a name made from the prompt and `now` that is not taken yet (or to the
 * chosen file). The bytes go to a temporary file first and are renamed into place, so a failure
 * leaves no partial image behind.
 */
export async function saveImage(target: SaveTarget, bytes: Uint8Array, prompt: string, format: ImageExtension, now: Date): Promise<vscode.Uri> {
  if (target.kind === "file") {
    await writeAtomically(target.file, bytes, true);
    return target.file;
  }
  await vscode.workspace.fs.createDirectory(target.folder);
  for (let attempt = 1; attempt <= maxNameAttempts; attempt++) {
    const file = vscode.Uri.joinPath(target.folder, imageFileName(prompt, now, format, attempt));
    if (await fileExists(file)) continue;
    try {
      await writeAtomically(file, bytes, false);
      return file;
    } catch (error) {
      // Taken between the check and the rename (another save in the same second): try the next name.
      if (error instanceof vscode.FileSystemError && error.code === "FileExists") continue;
      throw error;
    }
  }
  throw new Error(`No free file name for the image in ${target.folder.fsPath}.`);
}

async function writeAtomically(file: vscode.Uri, bytes: Uint8Array, overwrite: boolean): Promise<void> {
  const name = file.path.slice(file.path.lastIndexOf("/") + 1);
  const temp = vscode.Uri.joinPath(file, "..", `.${name}.${randomBytes(4).toString("hex")}.part`);
  try {
    // A write cut short (a full disk) leaves no partial .part file behind either.
    await vscode.workspace.fs.writeFile(temp, bytes);
    await vscode.workspace.fs.rename(temp, file, { overwrite });
  } catch (error) {
    await vscode.workspace.fs.delete(temp).then(undefined, () => undefined);
    throw error;
  }
}
