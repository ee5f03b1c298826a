// The ESM build: the package's main (UMD) requires its parts at run time, which a bundle cannot follow.
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser/lib/esm/main.js";
import { readFile } from "node:fs/promises";
import * as vscode from "vscode";
import { workspacePathOf } from "../../core/context/workspace-paths";
import { parseMcpConfig, type McpInput, type McpServerEntry, type ParsedConfig } from "../../core/mcp/mcp-config";
import { mergeMcpConfigs } from "../../core/mcp/merge-mcp-configs";
import { folderNames } from "../context/workspace-path";

export const mcpServersSetting = "wisp.mcp.servers";

export interface McpConfigSnapshot {
  readonly servers: readonly McpServerEntry[];
  readonly inputs: readonly McpInput[];
  readonly problems: readonly string[];
}

/**
 * The MCP servers the user configured: the `wisp.mcp.servers` setting, then each workspace
 * folder's `.vscode/mcp.json` (VS Code's format, comments allowed; merged as merge-mcp-configs.ts
 * says). Fires when any of them changes, or the folders do.
 */
export class McpConfigFiles implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];
  private watchers: vscode.Disposable | undefined;

  constructor() {
    this.watchFolders();
    this.subscriptions.push(
      this.changed,
      vscode.workspace.onDidChangeWorkspaceFolders(() => {
        this.watchFolders();
        this.changed.fire();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(mcpServersSetting)) this.changed.fire();
      }),
    );
  }

  async read(): Promise<McpConfigSnapshot> {
    const user = parseMcpConfig(vscode.workspace.getConfiguration().inspect(mcpServersSetting)?.globalValue, "user", "wisp.mcp.servers");
    const folders = vscode.workspace.workspaceFolders ?? [];
    const names = folderNames();
    const files = await Promise.all(
      folders.map(async (folder) => {
        const where = workspacePathOf(names, folder.index, ".vscode/mcp.json");
        return { folder: folder.index, path: folder.uri.fsPath, where, config: await readFolderFile(folder.uri, where) };
      }),
    );
    return mergeMcpConfigs(user, files, names);
  }

  /** A watcher on each folder's file (a glob over the workspace would report every nested .vscode/mcp.json). */
  private watchFolders(): void {
    this.watchers?.dispose();
    const fire = () => this.changed.fire();
    this.watchers = vscode.Disposable.from(
      ...(vscode.workspace.workspaceFolders ?? []).flatMap((folder) => {
        const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, ".vscode/mcp.json"));
        return [watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire)];
      }),
    );
  }

  dispose(): void {
    this.watchers?.dispose();
    for (const s of this.subscriptions) s.dispose();
  }
}

async function readFolderFile(folder: vscode.Uri, where: string): Promise<ParsedConfig> {
  const uri = vscode.Uri.joinPath(folder, ".vscode", "mcp.json");
  let text: string;
  try {
    // Read at every task start: from a local disk with node:fs, not a round trip through the editor.
    text = uri.scheme === "file" ? await readFile(uri.fsPath, "utf8") : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return { servers: [], inputs: [], problems: [] };
  }
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, { allowTrailingComma: true });
  if (errors.length > 0) return { servers: [], inputs: [], problems: [`${where}: ${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}`] };
  return parseMcpConfig(value, "workspace", where);
}
