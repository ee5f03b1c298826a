/**
 * How Wisp names a workspace file to the user and the model, and back: as VS Code's own features
 * do (workspace.asRelativePath), relative to its folder when the workspace has one folder, and
 * `folderName/relative` when it has more, so that one path never means two files.
 */

/** A path relative to one folder of the workspace, by the folder's place in the list. */
export interface FolderPath {
  readonly folder: number;
  readonly relative: string;
}

/** The path Wisp shows for `relative` in folder `folder` of a workspace whose folders have these names. */
export function workspacePathOf(folderNames: readonly string[], folder: number, relative: string): string {
  return folderNames.length > 1 ? `${folderNames[folder]}/${relative}` : relative;
}

/**
 * The files a path from the chat may mean, most likely first: in a single folder, that folder's;
 * with more folders, the folder its first segment names (each one, when names repeat), else the
 * path in every folder (a model that left the folder out): the caller keeps it only when exactly
 * one of them exists. None for a path that climbs out with `..`.
 */
export function folderPathCandidates(path: string, folderNames: readonly string[]): FolderPath[] {
  if (path.split(/[\\/]/).includes("..")) return [];
  const clean = path.replace(/^\.\//, "");
  if (folderNames.length <= 1) return folderNames.map((_, folder) => ({ folder, relative: clean }));
  const slash = clean.indexOf("/");
  const head = clean.slice(0, slash);
  const named = slash > 0 ? folderNames.flatMap((name, folder) => (name === head ? [{ folder, relative: clean.slice(slash + 1) }] : [])) : [];
  return named.length > 0 ? named : folderNames.map((_, folder) => ({ folder, relative: clean }));
}

/**
 * The path relative to folder `folder` when the workspace path is in it (as workspacePathOf names
 * it), else undefined: what an agent confined to one folder may see of the workspace's paths.
 */
export function relativeInFolder(path: string, folderNames: readonly string[], folder: number): string | undefined {
  if (folderNames.length <= 1) return path;
  const prefix = `${folderNames[folder]}/`;
  return path.startsWith(prefix) ? path.slice(prefix.length) : undefined;
}

/** The folders that workspace paths name by their first segment (more than one folder), in the folders' order. */
export function foldersNamedBy(paths: readonly string[], folderNames: readonly string[]): number[] {
  if (folderNames.length <= 1) return [];
  return folderNames.flatMap((name, folder) => (paths.some((path) => path.startsWith(`${name}/`)) ? [folder] : []));
}

/** The last name of a folder's path, either separator, a trailing one ignored: `${workspaceFolderBasename}`. */
export function folderBasename(path: string): string {
  return path.replace(/[\\/]+$/, "").split(/[\\/]/).pop() ?? "";
}
