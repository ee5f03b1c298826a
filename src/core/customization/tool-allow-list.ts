/**
 * The `tools:` allow-list of an agent or prompt file, as Wisp's tools: Wisp's own names, the names
 * and tool sets Copilot's files use, bare or qualified by their set as VS Code now writes them
 * (`read/readFile`), so a repository set up for Copilot works unchanged; and MCP tools by server
 * (`my-server/*`) or one by one (`my-server/tool`).
 */
import type { AgentToolName } from "../agent/tool-schemas";
import { todoToolName } from "../agent/todo-list";

/** A tool of Wisp's an allow-list may name: the workspace tools and the todo list. */
export type AllowedToolName = AgentToolName | typeof todoToolName;

const readTools: readonly AllowedToolName[] = ["read_file", "list_dir", "file_search", "grep_search"];
const editTools: readonly AllowedToolName[] = ["create_file", "replace_string_in_file"];

/**
 * VS Code's tool sets, the first part of its qualified names (`search/codebase`); the part after
 * the slash is read as a bare name. Any other `a/b` is an MCP server's tool.
 */
const copilotToolSets: readonly string[] = ["read", "search", "edit", "execute", "web", "vscode", "agent", "todo"];

/** Copilot's tool and tool-set names (and Wisp's own), each to the Wisp tools it stands for. */
export const toolAliases: Readonly<Record<string, readonly AllowedToolName[]>> = {
  read_file: ["read_file"],
  readFile: ["read_file"],
  list_dir: ["list_dir"],
  listDirectory: ["list_dir"],
  file_search: ["file_search"],
  fileSearch: ["file_search"],
  grep_search: ["grep_search"],
  textSearch: ["grep_search"],
  get_errors: ["get_errors"],
  problems: ["get_errors"],
  create_file: ["create_file"],
  createFile: ["create_file"],
  // create_file makes the folders a file needs.
  createDirectory: ["create_file"],
  replace_string_in_file: ["replace_string_in_file"],
  editFiles: [...editTools],
  insert_edit_into_file: ["replace_string_in_file"],
  apply_patch: ["replace_string_in_file"],
  run_in_terminal: ["run_in_terminal"],
  runInTerminal: ["run_in_terminal"],
  runCommands: ["run_in_terminal"],
  runTasks: ["run_in_terminal"],
  runTask: ["run_in_terminal"],
  terminal: ["run_in_terminal"],
  execute: ["run_in_terminal"],
  codebase: [...readTools],
  search: [...readTools],
  read: [...readTools, "get_errors"],
  edit: [...editTools],
  // Copilot's todo list is a tool set of its own: offered when named, as there.
  todo: [todoToolName],
  todos: [todoToolName],
  manage_todo_list: [todoToolName],
};

export interface ToolAllowList {
  readonly wisp: ReadonlySet<AllowedToolName>;
  /** MCP servers all of whose tools are allowed. */
  readonly mcpServers: ReadonlySet<string>;
  /** Single MCP tools, as `server/tool`. */
  readonly mcpTools: ReadonlySet<string>;
  /**
   * Names Wisp has no tool for (Copilot's fetch, githubRepo, …), never offered; a bare name that is
   * an MCP server's stands for all its tools, as in Copilot.
   */
  readonly unknown: readonly string[];
}

export function toolAllowList(names: readonly string[]): ToolAllowList {
  const wisp = new Set<AllowedToolName>();
  const mcpServers = new Set<string>();
  const mcpTools = new Set<string>();
  const unknown: string[] = [];
  for (const raw of names) {
    const name = raw.trim().replace(/^#/, "");
    const slash = name.indexOf("/");
    if (slash > 0) {
      const server = name.slice(0, slash);
      const tool = name.slice(slash + 1);
      const tools = copilotToolSets.includes(server) ? aliasOf(tool === "*" || tool === "" ? server : tool) : undefined;
      if (tools) {
        // One of VS Code's own: no MCP server needs starting for it.
        for (const t of tools) wisp.add(t);
        continue;
      }
      if (tool === "*" || tool === "") mcpServers.add(server);
      else mcpTools.add(`${server}/${tool}`);
      // An unknown tool of one of VS Code's sets (web/fetch): said so, in case no MCP server has that name.
      if (copilotToolSets.includes(server)) unknown.push(name);
      continue;
    }
    const tools = aliasOf(name);
    if (tools) for (const t of tools) wisp.add(t);
    else if (name !== "") unknown.push(name);
  }
  return { wisp, mcpServers, mcpTools, unknown };
}

function aliasOf(name: string): readonly AllowedToolName[] | undefined {
  return Object.hasOwn(toolAliases, name) ? toolAliases[name] : undefined;
}

/** Whether the list allows a tool: a Wisp tool by name, an MCP tool by its server and own name. */
export function allows(list: ToolAllowList, tool: { readonly name: string; readonly mcp?: { readonly server: string; readonly tool: string } }): boolean {
  if (tool.mcp) return list.mcpServers.has(tool.mcp.server) || list.unknown.includes(tool.mcp.server) || list.mcpTools.has(`${tool.mcp.server}/${tool.mcp.tool}`);
  return list.wisp.has(tool.name as AllowedToolName);
}

/** Whether the list lets any MCP tool through (otherwise no MCP server needs starting). */
export function allowsMcp(list: ToolAllowList): boolean {
  return list.mcpServers.size > 0 || list.mcpTools.size > 0 || list.unknown.length > 0;
}
