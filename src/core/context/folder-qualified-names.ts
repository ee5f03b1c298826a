/**
 * Names gathered from every folder of a multi-root workspace, then from the user's own: prompt
 * files, custom agents, MCP servers. The first of a name keeps it; one from another workspace
 * folder is offered as `FOLDER:NAME` (`/beta:review`), so that both stay reachable and say where
 * they come from; any other repeat (in the same folder, or the user's after a workspace's) is not
 * used. With one folder nothing is qualified: an earlier file of a name wins, as it always did.
 */
import { typeableName } from "../customization/command-name";

export interface FolderNamed {
  readonly name: string;
  /** The workspace folder it comes from, by its place in the list; undefined: the user's own. */
  readonly folder?: number;
}

/** What an item is called (`qualified`: its folder was put before its name), or why it is not used. */
export type NameOutcome = { readonly name: string; readonly qualified?: true } | { readonly hiddenBy: number } | { readonly reserved: true };

/** Each item's outcome, in order; `reserved` names (Wisp's own commands) are never taken. */
export function folderQualifiedNames(items: readonly FolderNamed[], folderNames: readonly string[], reserved: (name: string) => boolean = () => false): NameOutcome[] {
  const holders = new Map<string, number>();
  return items.map((item, index): NameOutcome => {
    if (reserved(item.name)) return { reserved: true };
    const first = holders.get(item.name);
    if (first === undefined) {
      holders.set(item.name, index);
      return { name: item.name };
    }
    const earlier = items[first]!.folder;
    if (folderNames.length > 1 && item.folder !== undefined && earlier !== undefined && earlier !== item.folder) {
      const name = qualifiedName(folderNames[item.folder]!, item.name);
      const taken = holders.get(name);
      if (taken !== undefined) return { hiddenBy: taken };
      holders.set(name, index);
      return { name, qualified: true };
    }
    return { hiddenBy: first };
  });
}

/** `FOLDER:NAME`, the folder's name made typeable after `/` (letters and digits of any script, `_`, `.`, `-`). */
export function qualifiedName(folderName: string, name: string): string {
  return `${typeableName(folderName)}:${name}`;
}

/**
 * The name a folder's file means when it names another (a prompt file's agent, a handoff's): the
 * one of its own folder when that one was qualified, else the name as written.
 */
export function ownFolderName(reference: string, folder: number | undefined, folderNames: readonly string[], names: ReadonlySet<string>): string {
  if (folder === undefined || folderNames.length < 2) return reference;
  const own = qualifiedName(folderNames[folder]!, reference);
  return names.has(own) ? own : reference;
}
