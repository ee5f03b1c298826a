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

  /**
   * `folder`: the workspace folder whose file defines the server (each folder's values are its own); undefined: the first.
   * Undefined when `signal` ends the asking: the task that needed them was stopped.
   */
  async values(ids: readonly string[], defs: readonly McpInput[], folder?: vscode.Uri, signal?: AbortSignal): Promise<Map<string, string> | undefined> {
    const values = new Map<string, string>();
    for (const id of ids) {
      const key = this.key(id, folder);
      let value = this.known.get(key) ?? (await this.secrets.get(key));
      if (value === undefined) {
        value = await this.ask(id, defs, signal);
        if (value === undefined && signal?.aborted) return undefined;
        if (value === undefined) throw new Error(`no value given for \${input:${id}}`);
        await this.secrets.store(key, value);
      }
      this.known.set(key, value);
      values.set(id, value);
    }
    this.redact([...this.known.values()]);
    return values;
  }

  /** The box stays open when focus moves away, so Stop must be able to close it. */
  private async ask(id: string, defs: readonly McpInput[], signal: AbortSignal | undefined): Promise<string | undefined> {
    if (signal?.aborted) return undefined;
    const def = defs.find((d) => d.id === id);
    const cancel = new vscode.CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal?.addEventListener("abort", onAbort);
    try {
      return await vscode.window.showInputBox(
        {
          title: `MCP: ${def?.description ?? id}`,
          prompt: `The value of \${input:${id}} for an MCP server of this workspace. It is kept in VS Code's secret store.`,
          password: def?.password ?? true,
          ignoreFocusOut: true,
        },
        cancel.token,
      );
    } finally {
      signal?.removeEventListener("abort", onAbort);
      cancel.dispose();
    }
  }

  private key(id: string, folder: vscode.Uri | undefined): string {
    return `wisp.mcp.input:${(folder ?? vscode.workspace.workspaceFolders?.[0]?.uri)?.toString() ?? ""}:${id}`;
  }
}
