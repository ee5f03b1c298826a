/**
 * The MCP servers of a window: the user's setting and each workspace folder's `.vscode/mcp.json`
 * (a multi-root workspace has one per folder). A folder's server wins a name the user's setting
 * also defines; a name two folders define is the first folder's, and the other's is `FOLDER:NAME`.
 * Each folder's servers and inputs keep their folder: its `${workspaceFolder}`.
 */
import { folderQualifiedNames } from "../context/folder-qualified-names";
import type { McpServerEntry, ParsedConfig } from "./mcp-config";

export interface FolderMcpConfig {
  /** The folder's place in the workspace's list. */
  readonly folder: number;
  /** Its path: what `${workspaceFolder}` is in its file. */
  readonly path: string;
  /** The file, as messages name it (`beta/.vscode/mcp.json`). */
  readonly where: string;
  readonly config: ParsedConfig;
}

export function mergeMcpConfigs(user: ParsedConfig, folders: readonly FolderMcpConfig[], folderNames: readonly string[]): ParsedConfig {
  const workspace = folders.flatMap((f) => f.config.servers.map((server) => ({ folder: f, server: { ...server, workspaceFolder: f.path } })));
  // The folders' first, so that theirs win a name the user's setting repeats.
  const outcomes = folderQualifiedNames([...workspace.map((w) => ({ name: w.server.name, folder: w.folder.folder })), ...user.servers.map((s) => ({ name: s.name }))], folderNames);
  const problems: string[] = [];
  const servers: McpServerEntry[] = [];
  workspace.forEach(({ folder, server }, i) => {
    const outcome = outcomes[i]!;
    if (!("name" in outcome)) return;
    if (outcome.qualified) {
      const first = workspace.find((w) => w.server.name === server.name)!;
      problems.push(`${folder.where}: server "${server.name}" is also defined in ${first.folder.where}: this one is "${outcome.name}".`);
    }
    servers.push({ ...server, name: outcome.name });
  });
  const users = user.servers.filter((_, i) => "name" in outcomes[workspace.length + i]!);
  return {
    servers: [...users, ...servers],
    inputs: [...user.inputs, ...folders.flatMap((f) => f.config.inputs.map((input) => ({ ...input, workspaceFolder: f.path })))],
    problems: [...user.problems, ...folders.flatMap((f) => f.config.problems), ...problems],
  };
}
