import assert from "node:assert/strict";
import { parseCustomAgent } from "../../../../src/core/customization/custom-agent";
import { parsePromptFile } from "../../../../src/core/customization/prompt-file";
import { allows, toolAllowList } from "../../../../src/core/customization/tool-allow-list";

describe("#tool: references in prompt files and custom agents", () => {
  it("a prompt file's #tool:NAME reaches the model as the tools it calls, and joins the file's tools list (as VS Code enables it)", () => {
    const prompt = parsePromptFile("ship.prompt.md", "ship", "---\ntools: [read_file]\n---\nFind the callers with #tool:codebase, then fix them with #tool:edit/editFiles.\nRun the tests with #tool:runInTerminal.");
    assert.equal(prompt.body, "Find the callers with `read_file`, `list_dir`, `file_search`, `grep_search`, then fix them with `create_file`, `replace_string_in_file`.\nRun the tests with `run_in_terminal`.");
    const list = toolAllowList(prompt.tools!);
    assert.ok(allows(list, { name: "replace_string_in_file" }), "editing is allowed: the body asks for it");
    assert.ok(allows(list, { name: "run_in_terminal" }));
    assert.deepEqual(prompt.problems, []);
  });

  it("a custom agent's instructions name MCP tools as the model calls them, and its tools list gets them", () => {
    const agent = parseCustomAgent("triage.agent.md", "triage", "---\ntools: ['search']\n---\nList the open issues with #tool:github/list_issues; read docs with #tool:docs/*.");
    assert.equal(agent.instructions, 'List the open issues with `mcp_github_list_issues`; read docs with the tools of the MCP server "docs".');
    const list = toolAllowList(agent.tools!);
    assert.ok(allows(list, { name: "mcp_github_list_issues", mcp: { server: "github", tool: "list_issues" } }));
    assert.ok(allows(list, { name: "mcp_docs_read", mcp: { server: "docs", tool: "read" } }));
    assert.ok(!allows(list, { name: "mcp_github_close_issue", mcp: { server: "github", tool: "close_issue" } }), "only the tool named");
  });

  it("without a tools list nothing is restricted: the references are only named", () => {
    const prompt = parsePromptFile("p.prompt.md", "p", "Use #tool:problems first.");
    assert.equal(prompt.body, "Use `get_errors` first.");
    assert.equal(prompt.tools, undefined);
  });

  it("an unknown tool stays as written, adds nothing, and its file gets a warning at the reference", () => {
    const prompt = parsePromptFile("p.prompt.md", "p", "---\ntools: [read_file]\n---\nIntro.\nFetch it with #tool:fetch, or #tool:web/fetch.");
    assert.equal(prompt.body, "Intro.\nFetch it with #tool:fetch, or #tool:web/fetch.");
    assert.deepEqual(prompt.tools, ["read_file"]);
    assert.deepEqual(
      prompt.problems.map((p) => [p.severity, p.start.line, p.start.column, p.end.column, p.message]),
      [
        ["warning", 4, 14, 25, 'Wisp has no tool named "fetch": #tool:fetch is sent as written, and no tool is added for it (for an MCP server\'s tools, write #tool:fetch/* or #tool:fetch/TOOL).'],
        ["warning", 4, 30, 45, 'Wisp has no tool named "web/fetch": #tool:web/fetch is sent as written, and no tool is added for it.'],
      ],
    );
  });

  it("text that only looks like a reference is left alone (an issue tag, a word before #)", () => {
    const prompt = parsePromptFile("p.prompt.md", "p", "See a#tool:read_file and ##tool:read_file.");
    assert.equal(prompt.body, "See a#tool:read_file and ##tool:read_file.");
    assert.deepEqual(prompt.problems, []);
  });
});
