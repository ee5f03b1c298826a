/**
 * `#tool:NAME` in a prompt file's or custom agent's body, VS Code's way to name a tool there
 * (`Use #tool:codebase to find…`, `#tool:search/codebase`, `#tool:github/list_issues`): the model
 * is told the tools by the names it calls them, and, as VS Code enables a tool the body
 * references, a file with a `tools:` list gets the referenced tools too.
 */
import { mcpToolName } from "../mcp/mcp-tools";
import type { FileProblem } from "./front-matter";
import { toolAllowList } from "./tool-allow-list";

/** `#tool:` then a name, or a set's or server's name, a slash and a tool's name or `*` (a sentence's last `.` is not the name's). */
const referencePattern = /(?<![\w#])#tool:(\w(?:[\w.-]*\w)?(?:\/(?:\w(?:[\w.-]*\w)?|\*))?)/g;

export interface ResolvedToolReferences {
  /** The body with each known reference as the tools the model calls (`read_file`, `mcp_github_list_issues`). */
  readonly text: string;
  /** The known names referenced, each once, as `tools:` takes them. */
  readonly tools: readonly string[];
  /** A warning at each reference Wisp has no tool for; it stays as written. */
  readonly problems: readonly FileProblem[];
}

/** `bodyLine`: the file's line where the body starts, for the problems' places. */
export function resolveToolReferences(body: string, bodyLine: number): ResolvedToolReferences {
  const tools: string[] = [];
  const problems: FileProblem[] = [];
  const text = body.replace(referencePattern, (whole, name: string, offset: number) => {
    const named = describeTool(name);
    if (named === undefined) {
      const before = body.slice(0, offset).split("\n");
      const line = bodyLine + before.length - 1;
      const column = before.at(-1)!.length;
      const hint = name.includes("/") ? "" : ` (for an MCP server's tools, write #tool:${name}/* or #tool:${name}/TOOL)`;
      problems.push({ message: `Wisp has no tool named "${name}": ${whole} is sent as written, and no tool is added for it${hint}.`, severity: "warning", start: { line, column }, end: { line, column: column + whole.length } });
      return whole;
    }
    if (!tools.includes(name)) tools.push(name);
    return named;
  });
  return { text, tools, problems };
}

/** A `tools:` list with the body's references added (none given: all tools are offered anyway). */
export function withReferencedTools(tools: readonly string[] | undefined, referenced: readonly string[]): readonly string[] | undefined {
  if (tools === undefined) return undefined;
  const added = referenced.filter((name) => !tools.includes(name));
  return added.length === 0 ? tools : [...tools, ...added];
}

/** The tools a name stands for, as the model knows them; undefined for a name Wisp has no tool for. */
function describeTool(name: string): string | undefined {
  const list = toolAllowList([name]);
  if (list.unknown.length > 0) return undefined;
  if (list.wisp.size > 0) return [...list.wisp].map((tool) => `\`${tool}\``).join(", ");
  const server = [...list.mcpServers][0];
  if (server !== undefined) return `the tools of the MCP server "${server}"`;
  const tool = [...list.mcpTools][0]!;
  const slash = tool.indexOf("/");
  return `\`${mcpToolName(tool.slice(0, slash), tool.slice(slash + 1))}\``;
}
