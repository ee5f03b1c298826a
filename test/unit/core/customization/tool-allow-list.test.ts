import assert from "node:assert/strict";
import { allows, allowsMcp, toolAllowList } from "../../../../src/core/customization/tool-allow-list";
import { planAgent } from "../../../../src/core/customization/plan-agent";
import { agentTools } from "../../../../src/core/agent/tool-schemas";
import { parseCustomAgent } from "../../../../src/core/customization/custom-agent";

describe("tool allow-lists", () => {
  const wispTools = agentTools.map((t) => t.function.name);
  const offered = (names: readonly string[]) => wispTools.filter((name) => allows(toolAllowList(names), { name }));

  it("the Plan agent allows the reading tools only", () => {
    assert.deepEqual(offered(planAgent.tools!), ["read_file", "list_dir", "file_search", "grep_search", "get_errors"]);
    assert.equal(allowsMcp(toolAllowList(planAgent.tools!)), false);
  });

  it("takes Copilot's tool and tool-set names as aliases of Wisp's tools", () => {
    assert.deepEqual(offered(["codebase"]), ["read_file", "list_dir", "file_search", "grep_search"]);
    assert.deepEqual(offered(["editFiles", "runCommands", "problems"]), ["get_errors", "create_file", "replace_string_in_file", "run_in_terminal"]);
    assert.deepEqual(offered(["#readFile", "textSearch"]), ["read_file", "grep_search"]);
  });

  it("names Wisp has no tool for are kept aside, never offered", () => {
    const list = toolAllowList(["fetch", "githubRepo", "read_file"]);
    assert.deepEqual(list.unknown, ["fetch", "githubRepo"]);
    assert.deepEqual(wispTools.filter((name) => allows(list, { name })), ["read_file"]);
  });

  it("MCP tools by server (server/*), one by one (server/tool), or by the server's bare name", () => {
    const list = toolAllowList(["docs/*", "tickets/create", "search"]);
    assert.ok(allows(list, { name: "mcp_docs_find", mcp: { server: "docs", tool: "find" } }));
    assert.ok(allows(list, { name: "mcp_tickets_create", mcp: { server: "tickets", tool: "create" } }));
    assert.ok(!allows(list, { name: "mcp_tickets_delete", mcp: { server: "tickets", tool: "delete" } }));
    assert.ok(!allows(list, { name: "mcp_other_x", mcp: { server: "other", tool: "x" } }));
    assert.ok(allowsMcp(list));
    assert.ok(!allowsMcp(toolAllowList(["read_file"])));
    // A bare name Wisp does not know may be an MCP server's: then all its tools.
    assert.ok(allows(toolAllowList(["tickets"]), { name: "mcp_tickets_delete", mcp: { server: "tickets", tool: "delete" } }));
  });

  it("takes VS Code's qualified names (read/readFile, edit/editFiles …) as the Wisp tools they name", () => {
    const list = toolAllowList(["search/codebase", "read/readFile", "read/problems", "edit/editFiles", "edit/createFile", "execute/runInTerminal", "web/fetch", "todo"]);
    assert.deepEqual(wispTools.filter((name) => allows(list, { name })), ["read_file", "list_dir", "file_search", "grep_search", "get_errors", "create_file", "replace_string_in_file", "run_in_terminal", "manage_todo_list"]);
    assert.deepEqual(list.unknown, ["web/fetch"], "warned about, as other names Wisp has no tool for");
    assert.deepEqual(offered(["edit/createDirectory", "execute/runTask"]), ["create_file", "run_in_terminal"]);
    assert.deepEqual(offered(["read/*"]), ["read_file", "list_dir", "file_search", "grep_search", "get_errors"]);
    // VS Code's own names start no MCP server; an unknown one of its sets may still be a server's.
    assert.ok(!allowsMcp(toolAllowList(["search/codebase", "read/readFile", "edit/editFiles", "execute/runInTerminal"])));
    assert.ok(allows(list, { name: "mcp_web_fetch", mcp: { server: "web", tool: "fetch" } }));
    // Reading a terminal's output is not running commands: not offered as run_in_terminal.
    assert.deepEqual(offered(["execute/getTerminalOutput"]), []);
    assert.deepEqual(toolAllowList(["my-server/readFile"]).wisp, new Set(), "another server's tool is only that");
  });

  it("the todo list is offered when the list names it (todo, todos, manage_todo_list), as Copilot's own tool set", () => {
    assert.ok(offered(["todos"]).includes("manage_todo_list"));
    assert.ok(offered(["manage_todo_list", "read"]).includes("manage_todo_list"));
    assert.ok(!offered(["read", "edit", "execute"]).includes("manage_todo_list"));
  });

  it("tools given as keys set to true ({read: true, edit: false}) are the keys set to true", () => {
    const agent = parseCustomAgent("a.agent.md", "a", "---\ntools: {read: true, edit: false, todo: true}\n---\nBody");
    assert.deepEqual(agent.problems, []);
    assert.deepEqual(agent.tools, ["read", "todo"]);
    assert.deepEqual(offered(agent.tools!), ["read_file", "list_dir", "file_search", "grep_search", "get_errors", "manage_todo_list"]);
  });
});
