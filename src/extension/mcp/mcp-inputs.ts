import * as vscode from "vscode";
import type { McpInput } from "../../core/mcp/mcp-config";

/**
 * Values of `${input:ID}`: asked once (a password box when the input says so), then kept in
 * VS Code's secret store for this workspace, never in settings; every value is handed to the
 * loggers to be scrubbed from their lines.
 */
export class McpInputs {
  private readonly known = new Map<string, string>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly redact: (values: readonly string[]) => void,
  ) {}

  /** `folder`: the workspace folder whose file defines the server (each folder's values are its own); undefined: the first. */
  async values(ids: readonly string[], defs: readonly McpInput[], folder?: vscode.Uri): Promise<Map<string, string>> {
    const values = new Map<string, string>();
    for (const id of ids) {
      const key = this.key(id, folder);
      let value = this.known.get(key) ?? (await this.secrets.get(key));
      if (value === undefined) {
        const def = defs.find((d) => d.id === id);
        value = await vscode.window.showInputBox({
          title: `MCP: ${def?.description ?? id}`,
          prompt: `The value of \${input:${id}} for an MCP server of this workspace. It is kept in VS Code's secret store.`,
          password: def?.password ?? true,
          ignoreFocusOut: true,
        });
        if (value === undefined) throw new Error(`no value given for \${input:${id}}`);
        await this.secrets.store(key, value);
      }
      this.known.set(key, value);
      values.set(id, value);
    }
    this.redact([...this.known.values()]);
    return values;
  }

  private key(id: string, folder: vscode.Uri | undefined): string {
    return `wisp.mcp.input:${(folder ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString() ?? ""}:${id}`;
  }
}
