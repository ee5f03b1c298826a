/**
 * The name AGENTS.md has in a folder: `AGENTS.md` itself, else one of another case (`agents.md`,
 * `Agents.md`). On the case-insensitive disks of macOS and Windows every tool finds those; read
 * by its exact name, a repository's `agents.md` counted there and was missing on Linux.
 */
export const agentsFileName = "AGENTS.md";

/** The folder's AGENTS.md among its entries' names; undefined when it has none. */
export function agentsFileIn(names: readonly string[]): string | undefined {
  if (names.includes(agentsFileName)) return agentsFileName;
  return names.filter((name) => name.toLowerCase() === agentsFileName.toLowerCase()).sort()[0];
}
