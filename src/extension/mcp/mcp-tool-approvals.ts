import { createHash } from "node:crypto";
import type * as vscode from "vscode";
import { definitionChanges, toolFingerprint, type ToolDefinition } from "../../core/mcp/tool-definition";

/** What was allowed: the fingerprint decides; the definition is kept to show what changed. */
interface AllowedTool {
  readonly fingerprint: string;
  /** The server's configuration as a digest (its text may hold a token). */
  readonly config: string;
  readonly description: string;
  readonly inputSchema: Record<string, unknown>;
}

/** Per workspace: `server/tool` -> the definition "Always allow this tool" was given for. */
const alwaysKey = "wisp.mcp.alwaysAllowedTools";
/** Names only, from before approvals were tied to the definition: never honoured, dropped on the next write. */
const namesOnlyKey = "wisp.mcp.alwaysAllow";

export type ToolApproval =
  | { readonly allowed: true }
  | {
      readonly allowed: false;
      /** The key of Allow in this session, for this exact definition. */
      readonly sessionKey: string;
      /** What changed since the user last allowed it; undefined when it was never allowed (or has not changed). */
      readonly changes?: string;
    };

/**
 * Which MCP tools the user allowed, tied to each tool's exact definition and its server's
 * configuration: the same definition runs without asking, a changed one asks again.
 */
export class McpToolApprovals {
  /** The definition each tool was last allowed for in this window (once, in this session or always), to show what changed. */
  private readonly lastAllowed = new Map<string, AllowedTool>();

  constructor(private readonly memento: vscode.Memento) {}

  check(id: string, config: string, definition: ToolDefinition): ToolApproval {
    const allowed = allowedTool(config, definition);
    const always = this.always()[id];
    if (always?.fingerprint === allowed.fingerprint) return { allowed: true };
    const before = this.lastAllowed.get(id) ?? always;
    const sessionKey = `mcp:${id}:${allowed.fingerprint}`;
    if (before === undefined || before.fingerprint === allowed.fingerprint) return { allowed: false, sessionKey };
    const parts = [
      ...(before.config !== allowed.config ? ["The server's configuration changed."] : []),
      definitionChanges({ name: definition.name, description: before.description, inputSchema: before.inputSchema }, definition),
    ];
    return { allowed: false, sessionKey, changes: parts.filter((p) => p !== "").join("\n") };
  }

  /** The user allowed a call of this definition (`always`: Always allow this tool). */
  async allowed(id: string, config: string, definition: ToolDefinition, always: boolean): Promise<void> {
    const allowed = allowedTool(config, definition);
    this.lastAllowed.set(id, allowed);
    if (!always) return;
    await this.memento.update(alwaysKey, { ...this.always(), [id]: allowed });
    if (this.memento.get(namesOnlyKey) !== undefined) await this.memento.update(namesOnlyKey, undefined);
  }

  private always(): Readonly<Record<string, AllowedTool>> {
    return this.memento.get<Record<string, AllowedTool>>(alwaysKey) ?? {};
  }
}

function allowedTool(config: string, definition: ToolDefinition): AllowedTool {
  return {
    fingerprint: sha256(toolFingerprint(config, definition)),
    config: sha256(config),
    description: definition.description,
    inputSchema: { ...definition.inputSchema },
  };
}

function sha256(text: string): string {
  return createHash("sha256").update(text).digest("hex");
}
