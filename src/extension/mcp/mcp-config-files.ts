// The ESM build: the package's main (UMD) requires its parts at run time, which a bundle cannot follow.
import { parse, printParseErrorCode, type ParseError } from "jsonc-parser/lib/esm/main.js";
import { readFile } from "node:fs/promises";
import * as vscode from "vscode";
import { parseMcpConfig, type McpInput, type McpServerEntry } from "../../core/mcp/mcp-config";

export const mcpServersSetting = "wisp.mcp.servers";

export interface McpConfigSnapshot {
  readonly servers: readonly McpServerEntry[];
  readonly inputs: readonly McpInput[];
  readonly problems: readonly string[];
}

/**
 * The MCP servers the user configured: the `wisp.mcp.servers` setting, then the workspace's
 * `.vscode/mcp.json` (VS Code's format, comments allowed; its servers win a name both define).
 * Fires when either changes.
 */
export class McpConfigFiles implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subscriptions: vscode.Disposable[] = [];

  constructor() {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (folder) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(folder, ".vscode/mcp.json"));
      const fire = () => this.changed.fire();
      this.subscriptions.push(watcher, watcher.onDidCreate(fire), watcher.onDidChange(fire), watcher.onDidDelete(fire));
    }
    this.subscriptions.push(
      this.changed,
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(mcpServersSetting)) this.changed.fire();
      }),
    );
  }

  async read(): Promise<McpConfigSnapshot> {
    const user = parseMcpConfig(vscode.workspace.getConfiguration().inspect(mcpServersSetting)?.globalValue, "user", "wisp.mcp.servers");
    const workspace = await this.readWorkspaceFile();
    const names = new Set(workspace.servers.map((s) => s.name));
    return {
      servers: [...user.servers.filter((s) => !names.has(s.name)), ...workspace.servers],
      inputs: [...user.inputs, ...workspace.inputs],
      problems: [...user.problems, ...workspace.problems],
    };
  }

  private async readWorkspaceFile(): Promise<McpConfigSnapshot> {
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) return { servers: [], inputs: [], problems: [] };
    const uri = vscode.Uri.joinPath(folder.uri, ".vscode", "mcp.json");
    let text: string;
    try {
      // Read at every task start: from a local disk with node:fs, not a round trip through the editor.
      text = uri.scheme === "file" ? await readFile(uri.fsPath, "utf8") : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
    } catch {
      return { servers: [], inputs: [], problems: [] };
    }
    const errors: ParseError[] = [];
    const value: unknown = parse(text, errors, { allowTrailingComma: true });
    if (errors.length > 0) return { servers: [], inputs: [], problems: [`.vscode/mcp.json: ${printParseErrorCode(errors[0]!.error)} at offset ${errors[0]!.offset}`] };
    return parseMcpConfig(value, "workspace", ".vscode/mcp.json");
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
  }
}
