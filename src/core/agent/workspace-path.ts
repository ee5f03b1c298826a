/**
 * A path the model gave, checked and normalised as text: relative to the workspace folder and
 * staying inside it. Symbolic links are the extension's part (extension/agent/contained-path.ts).
 */

export interface RelativeOptions {
  /** The path must name something under the root, not the root itself ("", "."). */
  readonly file?: boolean;
}

/**
 * The path with forward slashes and without `.` segments or trailing slashes; "" for the
 * workspace folder itself ("", ".", "./"). Absolute paths, `~`, and `..` past the root are refused
 * with a sentence the model can act on.
 */
export function relativeInside(relPath: string, options: RelativeOptions = {}): { readonly path: string } | { readonly error: string } {
  if (relPath.includes("\0")) return { error: "The path contains a NUL character: give a plain path relative to the workspace folder." };
  if (relPath !== "" && relPath.trim() === "") return { error: "The path is empty: give a path relative to the workspace folder." };
  const outside = { error: `Path ${relPath} is outside the workspace: give a path relative to the workspace folder.` };
  // `/x`, `\x`, `\\server\x`, `C:\x`, `C:x`, `~`, `~user/x`, `file:///x`.
  if (/^([/\\~]|[A-Za-z]:|[A-Za-z][\w+.-]*:\/\/)/.test(relPath)) return outside;
  const segments: string[] = [];
  for (const segment of relPath.split(/[/\\]/)) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") segments.push(segment);
    else if (segments.pop() === undefined) return outside;
  }
  if (options.file && segments.length === 0) return { error: `Path "${relPath}" names the workspace folder itself: give the path of a file in it.` };
  return { path: segments.join("/") };
}
