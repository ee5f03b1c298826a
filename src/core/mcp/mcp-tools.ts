/**
 * MCP tools as the model sees them: `mcp_<server>_<tool>` names (only [a-zA-Z0-9_-], at most 64
 * characters, collisions resolved), at most a set number in all, and their results as text.
 */
import type { ChatTool } from "../api/chat";

export interface ServerTool {
  readonly server: string;
  readonly name: string;
  readonly description?: string;
  readonly inputSchema: Record<string, unknown>;
}

export interface OfferedTool {
  /** The name the model calls. */
  readonly name: string;
  readonly server: string;
  /** The tool's own name on its server. */
  readonly tool: string;
  readonly chatTool: ChatTool;
}

const maxName = 64;

/** Each tool's name for the model, unique among `taken` and each other, in order. */
export function offeredTools(tools: readonly ServerTool[], maxTools: number, taken: ReadonlySet<string> = new Set()): { offered: OfferedTool[]; leftOut: string[] } {
  const used = new Set(taken);
  const offered: OfferedTool[] = [];
  const leftOut: string[] = [];
  for (const tool of tools) {
    if (offered.length >= maxTools) {
      leftOut.push(`${tool.server}/${tool.name}`);
      continue;
    }
    const name = uniqueName(mcpToolName(tool.server, tool.name), used);
    used.add(name);
    const description = (tool.description ?? "").trim() || `${tool.name} from the MCP server ${tool.server}`;
    offered.push({ name, server: tool.server, tool: tool.name, chatTool: { type: "function", function: { name, description: `${description} (MCP server "${tool.server}")`, parameters: objectSchema(tool.inputSchema) } } });
  }
  return { offered, leftOut };
}

/** The name the model calls a server's tool by (before another tool's same name makes it `…_2`). */
export function mcpToolName(server: string, tool: string): string {
  return `mcp_${clean(server)}_${clean(tool)}`.slice(0, maxName);
}

function clean(part: string): string {
  return part.replace(/[^a-zA-Z0-9_-]+/g, "_") || "_";
}

function uniqueName(base: string, used: ReadonlySet<string>): string {
  const cut = base.slice(0, maxName);
  if (!used.has(cut)) return cut;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const name = base.slice(0, maxName - suffix.length) + suffix;
    if (!used.has(name)) return name;
  }
}

/** Function parameters must be an object schema (a server's may lack `type`); `$schema` means nothing to a model. */
function objectSchema(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...rest } = schema;
  return rest.type === "object" ? rest : { ...rest, type: "object", properties: rest.properties ?? {} };
}

/** One piece of a `tools/call` result's content, as the SDK returns it. */
export interface ResultContent {
  readonly type: string;
  readonly text?: string;
  readonly data?: string;
  readonly mimeType?: string;
  readonly uri?: string;
  readonly name?: string;
  readonly resource?: { readonly uri?: string; readonly mimeType?: string; readonly text?: string; readonly blob?: string };
}

/** A result's content as text for the model: images, audio and resources described with their type and size. */
export function resultText(content: readonly ResultContent[], structured?: unknown): string {
  const parts = content.map((item) => {
    switch (item.type) {
      case "text":
        return item.text ?? "";
      case "image":
      case "audio":
        return `[${item.type}: ${item.mimeType ?? "unknown type"}, ${sizeOf(item.data)}]`;
      case "resource": {
        const r = item.resource ?? {};
        const body = r.text !== undefined ? `${r.text.length.toLocaleString("en-US")} characters of text` : sizeOf(r.blob);
        const head = `[resource: ${r.uri ?? "(no uri)"}, ${r.mimeType ?? "unknown type"}, ${body}]`;
        return r.text !== undefined ? `${head}\n${r.text}` : head;
      }
      case "resource_link":
        return `[resource link: ${item.uri ?? ""}${item.mimeType ? `, ${item.mimeType}` : ""}${item.name ? ` (${item.name})` : ""}]`;
      default:
        return `[${item.type} content]`;
    }
  });
  if (parts.length === 0 && structured !== undefined) return JSON.stringify(structured);
  return parts.join("\n");
}

/** Decoded size of base64 data, in bytes. */
function sizeOf(base64: string | undefined): string {
  if (!base64) return "0 bytes";
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return `${(Math.floor((base64.length * 3) / 4) - padding).toLocaleString("en-US")} bytes`;
}
