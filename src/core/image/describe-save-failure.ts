/** A failed write as the file system reports it (a FileSystemError's code and message). */
export interface SaveFailure {
  readonly code?: string;
  readonly message: string;
}

/**
 * Why the image could not be written to `where` (the folder as the user knows it), readably and
 * without the temporary file's name that the raw error carries.
 */
export function describeSaveFailure(failure: SaveFailure, where: string): string {
  const { code, message } = failure;
  if (code === "NoPermissions" || /\b(EACCES|EPERM)\b|permission denied/i.test(message)) return `Could not save the image in ${where}: permission denied.`;
  if (/\bEROFS\b|read-only file system/i.test(message)) return `Could not save the image in ${where}: the file system is read-only.`;
  if (code === "FileNotADirectory" || code === "FileExists" || /\b(ENOTDIR|EEXIST)\b/.test(message)) return `Could not save the image in ${where}: a file of that name is in the way of the folder.`;
  if (/\bENOSPC\b|no space left/i.test(message)) return `Could not save the image in ${where}: the disk is full.`;
  const reason = message.replace(/^(Error: )?\w+ \(FileSystemError\): /, "").replace(/ '?[^ ']*\.part'?/g, "").trim();
  return `Could not save the image in ${where}${reason ? `: ${reason}` : "."}`;
}
