/**
 * VS Code gives extensions no document, and so no editor, for a file over 50 MB (it does not send
 * its text to the extension host): the file shows in a tab while activeTextEditor is undefined.
 */
export const maxSyncedBytes = 50 * 1024 * 1024;

/** Why no editor is there for the file the active tab shows (`name`, `bytes` on disk), when its size is the reason. */
export function tooLargeForExtensions(name: string, bytes: number | undefined): string | undefined {
  if (bytes === undefined || bytes <= maxSyncedBytes) return undefined;
  const mb = Math.round(bytes / (1024 * 1024));
  return `${name} is ${mb} MB: VS Code does not hand files over 50 MB to extensions, so Wisp cannot read it.`;
}
