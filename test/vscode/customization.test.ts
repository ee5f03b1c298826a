import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import { quickActions } from "../../src/core/chat/prompt";
import type { AgentMessage, ChatMessage } from "../../src/core/api/chat";
import type { AssistantTurn, UserTurn } from "../../src/core/chat/conversation";
import type { WispApi } from "../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { TempDirs } from "../harness/temp-dirs";
import { waitFor } from "../harness/wait-for";
import { agentTaskView, toolResults } from "./support/agent-task";
import { activateWisp, resetWisp, setBaseUrl } from "./support/wisp-extension";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const abs = (path: string) => join(workspace, path);
const readingTools = ["file_search", "get_errors", "grep_search", "list_dir", "read_file"];
const allTools = ["create_file", "file_search", "get_errors", "grep_search", "list_dir", "manage_todo_list", "read_file", "replace_string_in_file", "run_in_terminal"];
const written = [".github", ".agents", "docs/guide.md", "greet.py", "AGENTS.md", "package.json"];
/** Files written here reach Wisp through VS Code's file watcher, which a loaded machine can hold up a while. */
const watched = 90_000;

describe("Customization files: prompt files, custom agents, Plan, scoped instructions, /compact, /init (real VS Code, scripted model)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const temp = new TempDirs();

  before(async () => {
    api = await activateWisp();
    server = await startScriptedChatServer({ key: "sk-customization-test" });
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("wisp.chat").update("workspaceContext", false, vscode.ConfigurationTarget.Global);
  });
  beforeEach(async () => {
    await api.chat.fromView({ type: "setMode", mode: "ask" });
    await api.chat.fromView({ type: "newChat" });
  });
  afterEach(() => api.chat.fromView({ type: "stop" }));
  after(async () => {
    await api.chat.fromView({ type: "setMode", mode: "ask" });
    await api.chat.fromView({ type: "newChat" });
    for (const key of ["workspaceContext", "contextTokens", "autoCompact", "userPromptsFolder"]) await vscode.workspace.getConfiguration("wisp.chat").update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const path of written) rmSync(abs(path), { recursive: true, force: true });
    await resetWisp();
    await server?.close();
    temp.removeAll();
  });

  const state = () => api.chat.state();
  const lastRequest = () => server.chatRequests.at(-1)! as { messages: AgentMessage[]; tools?: { function: { name: string } }[]; model: string };
  const toolNames = (request: { tools?: { function: { name: string } }[] }) => (request.tools ?? []).map((t) => t.function.name).sort();
  const { answer, ended } = agentTaskView(() => api);
  const write = (path: string, text: string) => {
    mkdirSync(dirname(abs(path)), { recursive: true });
    writeFileSync(abs(path), text);
  };
  const send = (text: string) => api.chat.fromView({ type: "send", text });
  /** Sends and waits until the server has the request(s) it brings. */
  async function sendAndWait(text: string, requests = 1): Promise<void> {
    const before = server.chatRequests.length;
    await send(text);
    await waitFor("the request", () => server.chatRequests.length, (n) => n >= before + requests);
  }

  it("a prompt file sends what it says: ${selection}, ${input:name} (from the argument, or the input box), its linked file, the argument, its agent and model", async () => {
    write("docs/guide.md", "Guide: greet people by name.\n");
    write(
      ".github/prompts/describe.prompt.md",
      ["---", "description: Describe the selected code", "agent: ask", "model: Scripted-Chat (copilot)", "argument-hint: what to stress", "---", "Describe `${selection}` for ${input:audience:who reads it}, following [the guide](../../docs/guide.md).", ""].join("\n"),
    );
    await waitFor("/describe offered", () => state().commands.map((c) => c.name), (names) => names.includes("describe"), watched);
    const offered = state().commands.find((c) => c.name === "describe")!;
    assert.deepEqual(offered, { name: "describe", description: "Describe the selected code", argumentHint: "what to stress", kind: "prompt" });
    assert.deepEqual(state().commands.slice(0, 7).map((c) => c.name), ["explain", "fix", "tests", "new", "compact", "init", "plan"]);

    const editor = await vscode.window.showTextDocument(vscode.Uri.file(abs("hello.ts")));
    editor.selection = new vscode.Selection(0, 16, 0, 21);
    server.queue({ text: "It greets." });
    await sendAndWait("/describe audience=reviewers stress the template string");
    const messages = lastRequest().messages as ChatMessage[];
    assert.equal(messages.length, 2, "the chat's system prompt and the message");
    assert.doesNotMatch(messages[0]!.content, /Instructions for files/, "no scoped instructions match hello.ts");
    const content = (lastRequest().messages.at(-1) as ChatMessage).content;
    assert.equal(content, "Describe `hello` for reviewers, following [the guide](../../docs/guide.md).\n\nstress the template string\n\ndocs/guide.md, line 1 (markdown):\n```markdown\nGuide: greet people by name.\n```");
    assert.equal(lastRequest().model, "scripted-chat", "the model the file names, as the server lists it");

    // Without the argument, the input is asked for in an input box; Enter takes what it holds.
    server.queue({ text: "It greets, again." });
    const before = server.chatRequests.length;
    const running = send("/describe");
    await waitFor("the input box answered", async () => {
      await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
      return server.chatRequests.length;
    }, (n) => n > before);
    await running;
    assert.match((lastRequest().messages.at(-1) as ChatMessage).content, /^Describe `hello` for , following/);
  });

  it("/explain, /fix and /tests send their prompt with the editor's selection, and the text after them", async () => {
    const sent = async (command: string) => {
      await api.chat.fromView({ type: "newChat" });
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(abs("hello.ts")));
      editor.selection = new vscode.Selection(0, 0, 1, 0);
      server.queue({ text: "Answered." });
      await sendAndWait(command);
      return (lastRequest().messages.at(-1) as ChatMessage).content;
    };
    const selected = "hello.ts, line 1 (typescript):\n```typescript\nexport function hello(name: string): string {\n```";
    assert.equal(await sent("/explain"), `${quickActions.explain.prompt}\n\n${selected}`);
    assert.equal(await sent("/fix the return type"), `${quickActions.findProblems.prompt}\n\nthe return type\n\n${selected}`);
    assert.equal(await sent("/tests empty names"), `${quickActions.writeTests.prompt}\n\nempty names\n\n${selected}`);
    assert.equal((state().chat.turns[0] as UserTurn).text, `${quickActions.writeTests.prompt}\n\nempty names`, "the transcript shows the prompt sent");
  });

  it("the user's folder (wisp.chat.userPromptsFolder) brings prompt files and .chatmode.md agents to the workspace; the workspace's file of the same name wins", async () => {
    const folder = temp.make("user-prompts");
    writeFileSync(join(folder, "mine.prompt.md"), "---\ndescription: From my folder\n---\nSay mine.\n");
    writeFileSync(join(folder, "shared.prompt.md"), "---\ndescription: The user's\n---\nSay user.\n");
    writeFileSync(join(folder, "critic.chatmode.md"), "---\ndescription: Criticizes\ntools: [read_file]\n---\nBe critical.\n");
    write(".github/prompts/shared.prompt.md", "---\ndescription: The workspace's\n---\nSay workspace.\n");
    await vscode.workspace.getConfiguration("wisp.chat").update("userPromptsFolder", folder, vscode.ConfigurationTarget.Global);
    await waitFor("the user's files read", () => [state().commands.map((c) => c.name), state().agents.map((a) => a.label)], ([names, agents]) => names!.includes("mine") && names!.includes("shared") && agents!.includes("critic"), watched);
    assert.deepEqual(state().commands.filter((c) => c.name === "shared").map((c) => c.description), ["The workspace's"]);

    server.queue({ text: "Mine." }, { text: "Workspace." });
    await sendAndWait("/mine");
    assert.equal((lastRequest().messages.at(-1) as ChatMessage).content, "Say mine.");
    await waitFor("answered", () => state().streaming, (streaming) => !streaming);
    await sendAndWait("/shared");
    assert.equal((lastRequest().messages.at(-1) as ChatMessage).content, "Say workspace.");
    await waitFor("answered", () => state().streaming, (streaming) => !streaming);

    const critic = state().agents.find((a) => a.label === "critic")!;
    await api.chat.fromView({ type: "setMode", mode: "agent", agent: critic.id });
    server.queue({ text: "Too long." });
    await sendAndWait("Criticize hello.ts");
    await ended();
    assert.deepEqual(toolNames(lastRequest()), ["read_file"]);
    assert.match(String(lastRequest().messages[0]!.content), /"critic" agent[^\n]*\nBe critical\.$/);

    await vscode.workspace.getConfiguration("wisp.chat").update("userPromptsFolder", undefined, vscode.ConfigurationTarget.Global);
    await waitFor("the user's files gone", () => state().commands.map((c) => c.name), (names) => !names.includes("mine"), watched);
  });

  it("the folders a repository's settings add (chat.promptFilesLocations, chat.agentFilesLocations) are read and watched, as VS Code reads them", async () => {
    const chat = vscode.workspace.getConfiguration("chat");
    write(".agents/prompts/ship.prompt.md", "---\ndescription: Ship it\n---\nShip the change.\n");
    write(".agents/shipper.agent.md", "---\ndescription: Ships\n---\nShip carefully.\n");
    await chat.update("promptFilesLocations", { ".agents/prompts": true }, vscode.ConfigurationTarget.Workspace);
    await chat.update("agentFilesLocations", { ".agents": true }, vscode.ConfigurationTarget.Workspace);
    try {
      const offered = () => [state().commands.map((c) => c.name), state().agents.map((a) => a.label)];
      await waitFor("the prompt file and the agent of the folders added", offered, ([names, agents]) => names!.includes("ship") && agents!.includes("shipper"), watched);
      // Created in VS Code, as a user does (a watcher set up by the settings' change may still be starting).
      const create = new vscode.WorkspaceEdit();
      create.createFile(vscode.Uri.file(abs(".agents/prompts/land.prompt.md")), { contents: new TextEncoder().encode("---\ndescription: Land it\n---\nLand the change.\n") });
      assert.ok(await vscode.workspace.applyEdit(create));
      await waitFor("a prompt file created there later", () => state().commands.map((c) => c.name), (names) => names.includes("land"), watched);
      server.queue({ text: "Shipped." });
      await sendAndWait("/ship");
      assert.equal((lastRequest().messages.at(-1) as ChatMessage).content, "Ship the change.");
      await waitFor("answered", () => state().streaming, (streaming) => !streaming);
    } finally {
      await chat.update("promptFilesLocations", undefined, vscode.ConfigurationTarget.Workspace);
      await chat.update("agentFilesLocations", undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitFor("gone with the settings", () => state().commands.map((c) => c.name), (names) => !names.includes("ship") && !names.includes("land"), watched);
  });

  it("bad front matter: a diagnostic in the file itself, a clear error in the chat, and nothing is sent", async () => {
    // Created and then edited in VS Code, as a user does.
    const uri = vscode.Uri.file(abs(".github/prompts/broken.prompt.md"));
    const create = new vscode.WorkspaceEdit();
    create.createFile(uri, { contents: new TextEncoder().encode("---\ndescription: Broken\ntools: [read_file, grep_search\nagent: agent\n---\nDo it.\n") });
    assert.ok(await vscode.workspace.applyEdit(create));
    const diagnostics = await waitFor("the diagnostic", () => vscode.languages.getDiagnostics(uri), (d) => d.some((x) => x.severity === vscode.DiagnosticSeverity.Error), watched);
    const error = diagnostics.find((d) => d.severity === vscode.DiagnosticSeverity.Error)!;
    assert.equal(error.source, "Wisp");
    assert.match(error.message, /^Bad YAML: /);
    assert.equal(error.range.start.line, 3);
    const before = server.chatRequests.length;
    await assert.rejects(send("/broken"), /\/broken was not sent: its front matter has an error \(\.github\/prompts\/broken\.prompt\.md, line 4: Bad YAML/);
    assert.equal(server.chatRequests.length, before, "nothing sent");
    assert.equal(state().chat.turns.length, 0);

    // An unknown key is a warning only: the file is still used. Rewritten in VS Code, as the file's creation was.
    const fixed = "---\ndescription: Fixed\ncolour: blue\n---\nDo it.\n";
    const rewrite = new vscode.WorkspaceEdit();
    rewrite.createFile(uri, { overwrite: true, contents: new TextEncoder().encode(fixed) });
    assert.ok(await vscode.workspace.applyEdit(rewrite));
    assert.equal(readFileSync(uri.fsPath, "utf8"), fixed);
    await waitFor("the warning alone", () => vscode.languages.getDiagnostics(uri), (d) => d.length === 1 && d[0]!.severity === vscode.DiagnosticSeverity.Warning, watched);
    server.queue({ text: "Done." });
    await sendAndWait("/broken");
  });

  it("a prompt file edited and not saved runs as its editor shows it, its problems show as it is typed, and closing it unsaved brings back the disk's", async () => {
    // Unsaved is what this is about: code-server may save by itself.
    const files = vscode.workspace.getConfiguration("files");
    await files.update("autoSave", "off", vscode.ConfigurationTarget.Global);
    const uri = vscode.Uri.file(abs(".github/prompts/draft.prompt.md"));
    // Created in VS Code, as a user does (a file written behind its back may reach Wisp's watcher late).
    const create = new vscode.WorkspaceEdit();
    create.createFile(uri, { overwrite: true, contents: new TextEncoder().encode("---\ndescription: Draft\n---\nSay the old words.\n") });
    assert.ok(await vscode.workspace.applyEdit(create));
    await waitFor("offered", () => state().commands.map((c) => c.name), (names) => names.includes("draft"), watched);
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    try {
      assert.ok(await editor.edit((edit) => edit.replace(new vscode.Range(3, 0, 3, 18), "Say the new words.")));
      assert.ok(editor.document.isDirty);
      server.queue({ text: "New words." });
      await sendAndWait("/draft");
      assert.equal((lastRequest().messages.at(-1) as ChatMessage).content, "Say the new words.");
      await waitFor("answered", () => state().streaming, (streaming) => !streaming);

      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(2, 0), "colour: blue\n")));
      await waitFor("the warning, unsaved", () => vscode.languages.getDiagnostics(uri), (d) => d.length === 1 && /colour/.test(d[0]!.message));
    } finally {
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
    await waitFor("the disk's file again", () => vscode.languages.getDiagnostics(uri), (d) => d.length === 0);
    server.queue({ text: "Old words." });
    await sendAndWait("/draft");
    assert.equal((lastRequest().messages.at(-1) as ChatMessage).content, "Say the old words.");
    await waitFor("answered", () => state().streaming, (streaming) => !streaming);
    await files.update("autoSave", undefined, vscode.ConfigurationTarget.Global);
  });

  it("a custom agent is in the switch, its request carries only its tools and its instructions, a call outside them is refused, and its handoff shows", async () => {
    write(
      ".github/agents/reviewer.agent.md",
      ["---", "description: Reviews code, changes nothing", "tools: ['codebase', 'problems', 'fetch']", "handoffs:", "  - label: Fix it", "    agent: agent", "    prompt: Fix what the review found.", "---", "Review for correctness; cite file and line.", ""].join("\n"),
    );
    await waitFor("the agent in the switch", () => state().agents.map((a) => a.id), (ids) => ids.includes("custom:reviewer"), watched);
    assert.deepEqual(state().agents.map((a) => a.label).slice(0, 2), ["Plan", "reviewer"]);
    await api.chat.fromView({ type: "setMode", mode: "agent", agent: "custom:reviewer" });
    assert.equal(state().mode, "agent");
    assert.equal(state().agentId, "custom:reviewer");
    server.queue(
      { toolCalls: [{ name: "create_file", arguments: { path: "review.txt", content: "x" } }] },
      { text: "hello.ts: fine." },
    );
    const before = server.chatRequests.length;
    await send("Review hello.ts");
    await ended();
    const [first, second] = server.chatRequests.slice(before) as { tools?: { function: { name: string } }[]; messages: AgentMessage[] }[];
    assert.deepEqual(toolNames(first!), readingTools);
    assert.match(String(first!.messages[0]!.content), /You are working as the "reviewer" agent\. [^\n]*\nReview for correctness; cite file and line\.$/);
    assert.match(toolResults(second!)[0]!, /create_file is not one of this agent's tools/);
    assert.equal(existsSync(abs("review.txt")), false);
    assert.deepEqual(answer()!.customAgent, { name: "reviewer", handoffs: [{ label: "Fix it", agent: "agent", prompt: "Fix what the review found.", send: false }] });
    // A handoff that does not send puts its prompt in the box, with the answer attached, in Agent.
    await api.chat.fromView({ type: "handoff", turnId: answer()!.id, index: 0 });
    assert.equal(state().agentId, undefined);
    assert.deepEqual(state().chat.pending.map((a) => [a.source, a.label, a.text]), [["answer", "The answer of reviewer", "hello.ts: fine."]]);
    await api.chat.fromView({ type: "removeAttachment", id: state().chat.pending[0]!.id });
  });

  it("a prompt file with tools and no agent runs in the custom agent chosen in the switch, with the prompt's tools, as in VS Code", async () => {
    write(".github/agents/tidier.agent.md", "---\ndescription: Tidies code\ntools: ['codebase']\n---\nKeep every change small.\n");
    write(".github/prompts/tidy-up.prompt.md", "---\ndescription: Tidy a file\ntools: ['read_file', 'editFiles']\n---\nTidy hello.ts.\n");
    await waitFor("the agent and the prompt offered", () => [state().agents.map((a) => a.id), state().commands.map((c) => c.name)], ([agents, names]) => agents!.includes("custom:tidier") && names!.includes("tidy-up"), watched);
    await api.chat.fromView({ type: "setMode", mode: "agent", agent: "custom:tidier" });
    server.queue({ text: "Tidied." });
    const before = server.chatRequests.length;
    await send("/tidy-up");
    await ended();
    assert.equal(state().agentId, "custom:tidier", "the switch stays on the agent chosen");
    const request = server.chatRequests[before] as { tools?: { function: { name: string } }[]; messages: AgentMessage[] };
    assert.deepEqual(toolNames(request), ["create_file", "read_file", "replace_string_in_file"], "the prompt file's tools");
    assert.match(String(request.messages[0]!.content), /You are working as the "tidier" agent\. [^\n]*\nKeep every change small\.$/);
    assert.equal((request.messages.at(-1) as ChatMessage).content, "Tidy hello.ts.");
  });

  it("the Plan agent reads only, answers with a plan, and Start Implementation continues in Agent with the plan", async () => {
    const plan = "1. Add greet.test.ts calling hello(\"Ana\").\n2. Run the tests.";
    server.queue({ toolCalls: [{ name: "read_file", arguments: { path: "hello.ts" } }] }, { text: plan });
    const before = server.chatRequests.length;
    await send("/plan Add a test for hello");
    await ended();
    assert.equal(state().mode, "agent");
    assert.equal(state().agentId, "plan");
    const requests = server.chatRequests.slice(before) as { tools?: { function: { name: string } }[]; messages: AgentMessage[] }[];
    assert.equal(requests.length, 2);
    for (const request of requests) assert.deepEqual(toolNames(request), readingTools);
    assert.match(String(requests[0]!.messages[0]!.content), /"Plan" agent[^\n]*\nYou are in planning mode/);
    assert.equal(requests[0]!.messages.at(-1)!.content, "Add a test for hello");
    assert.match(toolResults(requests[1]!)[0]!, /export function hello/);
    const planned = answer()!;
    assert.equal(planned.text, plan);
    assert.equal(planned.customAgent?.name, "Plan");
    assert.deepEqual(planned.customAgent?.handoffs.map((h) => [h.label, h.agent, h.send]), [["Start Implementation", "agent", true]]);

    server.queue({ text: "Implemented." });
    const beforeHandoff = server.chatRequests.length;
    await api.chat.fromView({ type: "handoff", turnId: planned.id, index: 0 });
    await ended();
    assert.equal(state().mode, "agent");
    assert.equal(state().agentId, undefined, "Agent itself");
    const implementation = server.chatRequests[beforeHandoff] as { tools?: { function: { name: string } }[]; messages: AgentMessage[] };
    assert.deepEqual(toolNames(implementation), allTools);
    assert.doesNotMatch(String(implementation.messages[0]!.content), /planning mode/);
    const task = String(implementation.messages.at(-1)!.content);
    assert.ok(task.startsWith("Implement the plan above, step by step."), task);
    assert.ok(task.includes(`The answer of Plan (markdown):\n\`\`\`markdown\n${plan}\n\`\`\``), task);
    assert.equal(answer()!.customAgent, undefined);
  });

  it("an applyTo **/*.py instruction goes with a question about a Python file and not with one about a TypeScript file; also with the agent's edit and an inline edit", async () => {
    write(".github/instructions/python.instructions.md", "---\napplyTo: '**/*.py'\n---\nUse type hints in Python.\n");
    write("greet.py", "def greet(name):\n    return 'hi ' + name\n");
    await waitFor("the instructions read", () => api.chat.customization().instructions, (i) => i.includes(".github/instructions/python.instructions.md"), watched);
    const systemOf = (request: { messages: AgentMessage[] }) => (request.messages[0]?.role === "system" ? String(request.messages[0].content) : "");

    const python = await vscode.window.showTextDocument(vscode.Uri.file(abs("greet.py")));
    python.selection = new vscode.Selection(0, 0, 1, 30);
    server.queue({ text: "It greets." });
    await vscode.commands.executeCommand("wisp.askAboutSelection", "What does this do?");
    // After the chat's own system prompt (wisp.chat.systemPrompt).
    assert.match(systemOf(lastRequest()), /\n\nInstructions for files matching \*\*\/\*\.py \(from \.github\/instructions\/python\.instructions\.md\):\nUse type hints in Python\.$/);

    const ts = await vscode.window.showTextDocument(vscode.Uri.file(abs("hello.ts")));
    ts.selection = new vscode.Selection(0, 0, 2, 1);
    server.queue({ text: "It greets too." });
    await vscode.commands.executeCommand("wisp.askAboutSelection", "And this?");
    assert.doesNotMatch(JSON.stringify(lastRequest().messages), /type hints/);

    // A file named in the question counts as in play.
    server.queue({ text: "Yes." });
    await sendAndWait("Is greet.py tested?");
    assert.match(systemOf(lastRequest()), /Use type hints in Python\./);

    // The agent edits a Python file: the edit's result carries the instructions, once.
    await api.chat.fromView({ type: "setMode", mode: "agent" });
    server.queue({ toolCalls: [{ name: "replace_string_in_file", arguments: { path: "greet.py", old_string: "def greet(name):", new_string: "def greet(name: str) -> str:" } }] }, { text: "Typed." });
    const before = server.chatRequests.length;
    await send("Type the greeting function");
    await ended();
    const [taskStart, afterEdit] = server.chatRequests.slice(before) as { messages: AgentMessage[] }[];
    assert.doesNotMatch(systemOf(taskStart!), /type hints/, "no Python file in play when the task started");
    assert.match(toolResults(afterEdit!)[0]!, /^Edited greet\.py \(\+1 −1\)\.[\s\S]*\n\nInstructions for files matching \*\*\/\*\.py \(from \.github\/instructions\/python\.instructions\.md\):\nUse type hints in Python\.$/);
    await api.chat.fromView({ type: "setMode", mode: "ask" });

    // Edit Selection in a Python file.
    const edited = await vscode.window.showTextDocument(vscode.Uri.file(abs("greet.py")));
    edited.selection = new vscode.Selection(1, 0, 1, 30);
    server.queue({ text: "```python\n    return f'hi {name}'\n```" });
    await vscode.commands.executeCommand("wisp.editSelection", { instruction: "use an f-string" });
    assert.match(systemOf(lastRequest()), /You edit code\.[\s\S]*Use type hints in Python\.$/);
    await vscode.commands.executeCommand("wisp.edit.reject");
  });

  it("instructions in a subfolder of .github/instructions (applyTo unquoted, as Copilot's files may have it) take effect; any Markdown file of .github/agents but its README is an agent; one with user-invocable: false is not in the switch", async () => {
    write(".github/instructions/frontend/typescript.instructions.md", "---\napplyTo: **/*.ts\n---\nPrefer interfaces to type aliases.\n");
    write(".github/agents/helper.md", "---\ndescription: Helps\n---\nBe helpful.\n");
    write(".github/agents/README.md", "# Our agents\n");
    write(".github/agents/scout.agent.md", "---\nuser-invocable: false\n---\nScout ahead.\n");
    const nested = ".github/instructions/frontend/typescript.instructions.md";
    await waitFor("the files read", () => [api.chat.customization().instructions, state().agents.map((a) => a.label), api.chat.customization().agents], ([instructions, agents, read]) => instructions!.includes(nested) && agents!.includes("helper") && read!.includes(".github/agents/scout.agent.md"), watched);
    assert.ok(!state().agents.some((a) => a.label === "README"), "a folder's README is no agent");
    assert.ok(!state().agents.some((a) => a.label === "scout"), "read (a handoff may name it), but not offered in the switch");

    server.queue({ text: "It exports hello." });
    await sendAndWait("What does hello.ts export?");
    assert.match(String(lastRequest().messages[0]!.content), /\n\nInstructions for files matching \*\*\/\*\.ts \(from \.github\/instructions\/frontend\/typescript\.instructions\.md\):\nPrefer interfaces to type aliases\.$/);
    await waitFor("answered", () => state().streaming, (streaming) => !streaming);

    for (const path of [".github/instructions/frontend", ".github/agents/helper.md", ".github/agents/README.md", ".github/agents/scout.agent.md"]) rmSync(abs(path), { recursive: true, force: true });
    await waitFor("the files gone", () => [api.chat.customization().instructions, state().agents.map((a) => a.label)], ([instructions, agents]) => !instructions!.includes(nested) && !agents!.includes("helper"), watched);
  });

  it("an instructions file that applies brings the instructions files it links (Apply the [general rules](./general.instructions.md)), as VS Code does", async () => {
    const general = ".github/instructions/general.instructions.md";
    const typescript = ".github/instructions/typescript.instructions.md";
    write(general, "---\ndescription: Shared rules, linked from the others\n---\nName things plainly.\n");
    write(typescript, "---\napplyTo: '**/*.ts'\n---\nApply the [general rules](./general.instructions.md).\n");
    await waitFor("the files read", () => api.chat.customization().instructions, (read) => read.includes(general) && read.includes(typescript), watched);
    server.queue({ text: "It exports hello." });
    await sendAndWait("What does hello.ts export?");
    assert.match(
      String(lastRequest().messages[0]!.content),
      /\n\nInstructions for files matching \*\*\/\*\.ts \(from \.github\/instructions\/typescript\.instructions\.md\):\nApply the \[general rules\]\(\.\/general\.instructions\.md\)\.\n\nInstructions \(from \.github\/instructions\/general\.instructions\.md\):\nName things plainly\.$/,
    );
    await waitFor("answered", () => state().streaming, (streaming) => !streaming);
    for (const path of [general, typescript]) rmSync(abs(path), { force: true });
    await waitFor("the files gone", () => api.chat.customization().instructions, (read) => !read.includes(general) && !read.includes(typescript), watched);
  });

  it("the instructions files .github/copilot-instructions.md links go with an Ask question and an agent task, as VS Code adds them", async () => {
    const naming = ".github/instructions/naming.instructions.md";
    write(naming, "---\ndescription: Naming, linked from the project's instructions\n---\nName things plainly.\n");
    write(".github/copilot-instructions.md", "Follow [our naming rules](instructions/naming.instructions.md).\n");
    await waitFor("the instructions read", () => api.chat.customization().instructions, (read) => read.includes(naming), watched);
    const linked = /\n\nInstructions \(from \.github\/instructions\/naming\.instructions\.md\):\nName things plainly\.$/;
    server.queue({ text: "Fine." });
    await sendAndWait("How should I name things?");
    assert.match(String(lastRequest().messages[0]!.content), linked);
    await waitFor("answered", () => state().streaming, (streaming) => !streaming);

    await api.chat.fromView({ type: "setMode", mode: "agent" });
    server.queue({ text: "Named." });
    await sendAndWait("Name a variable");
    await ended();
    assert.match(String(lastRequest().messages[0]!.content), linked);
    await api.chat.fromView({ type: "setMode", mode: "ask" });
    for (const path of [naming, ".github/copilot-instructions.md"]) rmSync(abs(path), { force: true });
    await waitFor("the file gone", () => api.chat.customization().instructions, (read) => !read.includes(naming), watched);
  });

  it("an Ask question carries the project's rules (AGENTS.md, .github/copilot-instructions.md) in its system message, as Copilot's chat does; wisp.agent.rules off leaves them out", async () => {
    write("AGENTS.md", "Answer in British English.\n");
    write(".github/copilot-instructions.md", "Prices are in cents.\n");
    server.queue({ text: "It greets." });
    await sendAndWait("What does hello.ts do?");
    const system = String(lastRequest().messages[0]!.content);
    assert.match(system, /\n\nProject rules from AGENTS\.md:\nAnswer in British English\.\n\nProject rules from \.github\/copilot-instructions\.md:\nPrices are in cents\./);
    await waitFor("answered", () => state().streaming, (streaming) => !streaming);

    await vscode.workspace.getConfiguration("wisp.agent").update("rules", false, vscode.ConfigurationTarget.Global);
    try {
      server.queue({ text: "It still greets." });
      await sendAndWait("And now?");
      assert.doesNotMatch(String(lastRequest().messages[0]!.content), /Project rules/);
      await waitFor("answered", () => state().streaming, (streaming) => !streaming);
    } finally {
      await vscode.workspace.getConfiguration("wisp.agent").update("rules", undefined, vscode.ConfigurationTarget.Global);
      for (const path of ["AGENTS.md", ".github/copilot-instructions.md"]) rmSync(abs(path), { force: true });
    }
  });

  it("agents.md in lower case is the project's rules, as it is on macOS and Windows, and /init adds its sections to it instead of drafting a second AGENTS.md", async () => {
    write("agents.md", "# Rules\n\nAnswer in haiku.\n");
    try {
      server.queue({ text: "Greets, it does." });
      await sendAndWait("What does hello.ts do?");
      assert.match(String(lastRequest().messages[0]!.content), /\n\nProject rules from agents\.md:\n# Rules\n\nAnswer in haiku\./);
      await waitFor("answered", () => state().streaming, (streaming) => !streaming);

      const sessions = () => api.edit.sessions().filter((s) => /\/agents\.md$/i.test(s.uri));
      await send("/init");
      await waitFor("the draft under review", sessions, (s) => s.length === 1 && s[0]!.state === "reviewing");
      assert.match(sessions()[0]!.uri, /\/agents\.md$/, "the sections go into the file there is");
      await vscode.commands.executeCommand("wisp.edit.accept");
      const text = await waitFor("agents.md saved", () => readFileSync(abs("agents.md"), "utf8"), (t) => t.includes("\n## "));
      assert.match(text, /^# Rules\n\nAnswer in haiku\.\n\n## /);
      assert.equal(existsSync(abs("AGENTS.md")), false, "no second file");
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeAllEditors");
      rmSync(abs("agents.md"), { force: true });
    }
  });

  it("a rules file that links to a sensitive file (AGENTS.md -> .env) is left out: the secrets do not go with an Ask question or an agent task", async () => {
    write(".env", "API_KEY=sk-live-rules-secret\n");
    symlinkSync(".env", abs("AGENTS.md"));
    write(".github/copilot-instructions.md", "Prices are in cents.\n");
    try {
      server.queue({ text: "It greets." });
      await sendAndWait("What does hello.ts do?");
      const ask = String(lastRequest().messages[0]!.content);
      assert.match(ask, /Project rules from \.github\/copilot-instructions\.md:\nPrices are in cents\./, "the other rules still go");
      assert.doesNotMatch(ask, /sk-live-rules-secret/);
      await waitFor("answered", () => state().streaming, (streaming) => !streaming);

      await api.chat.fromView({ type: "setMode", mode: "agent" });
      server.queue({ text: "Nothing to do." });
      await sendAndWait("Tidy up hello.ts");
      const task = String(lastRequest().messages[0]!.content);
      assert.match(task, /Project rules from \.github\/copilot-instructions\.md:\nPrices are in cents\./);
      assert.doesNotMatch(task, /sk-live-rules-secret/);
      await ended();
    } finally {
      for (const path of ["AGENTS.md", ".env", ".github/copilot-instructions.md"]) rmSync(abs(path), { force: true });
    }
  });

  it("a rules file of .wisp/rules that is a link (to rules shared with another tool) goes with a question, as a plain one does", async () => {
    write("docs/shared-rules.md", "Prefer small functions.\n");
    mkdirSync(abs(".wisp/rules"), { recursive: true });
    symlinkSync("../../docs/shared-rules.md", abs(".wisp/rules/shared.md"));
    try {
      server.queue({ text: "Small it is." });
      await sendAndWait("How long should hello.ts's functions be?");
      assert.match(String(lastRequest().messages[0]!.content), /\n\nProject rules from \.wisp\/rules\/shared\.md:\nPrefer small functions\./);
      await waitFor("answered", () => state().streaming, (streaming) => !streaming);
    } finally {
      for (const path of [".wisp", "docs/shared-rules.md"]) rmSync(abs(path), { recursive: true, force: true });
    }
  });

  it("/compact sends the summary request, replaces the conversation with the summary, and the next question goes on from it; near the context it compacts by itself", async () => {
    server.queue({ text: "Use hello(name)." }, { text: "It returns a string." });
    await sendAndWait("How do I greet someone?");
    await sendAndWait("What does it return?");
    await waitFor("both answered", () => state().chat.turns.filter((t) => t.role === "assistant" && t.status === "done").length, (n) => n === 2);
    server.queue({ text: "## Task\nLearn the greeting API.\n## Decisions\nUse hello(name)." });
    await sendAndWait("/compact keep the API");
    await waitFor("compacted", () => state().chat.turns, (turns) => turns.length === 1 && (turns[0] as AssistantTurn).status === "done");
    const summaryRequest = lastRequest().messages as ChatMessage[];
    assert.equal(summaryRequest.length, 2);
    assert.match(summaryRequest[0]!.content, /^You write the summary that replaces a conversation/);
    assert.match(summaryRequest[1]!.content, /keep in particular: keep the API[\s\S]*<conversation>\nUser: How do I greet someone\?\n\nAssistant: Use hello\(name\)\.\n\nUser: What does it return\?\n\nAssistant: It returns a string\.\n<\/conversation>$/);
    const summary = state().chat.turns[0] as AssistantTurn;
    assert.equal(summary.text, "## Task\nLearn the greeting API.\n## Decisions\nUse hello(name).");
    assert.deepEqual(summary.compaction, { replacedTurns: 4, auto: false, files: [], todos: [] });

    server.queue({ text: "Call hello(\"Ana\")." });
    await sendAndWait("Show me a call");
    const next = lastRequest().messages as ChatMessage[];
    assert.equal(next.length, 2, "the summary and the question only");
    // After the chat's own system prompt (wisp.chat.systemPrompt).
    assert.match(next[0]!.content, /\n\nThe conversation so far was compacted into this summary[^\n]*\n## Task\nLearn the greeting API\./);
    assert.deepEqual(next[1], { role: "user", content: "Show me a call" });

    // Nearly full: the question first brings a summary, then goes on from it.
    await api.chat.fromView({ type: "newChat" });
    await vscode.workspace.getConfiguration("wisp.chat").update("contextTokens", 1200, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("wisp.chat").update("autoCompact", 50, vscode.ConfigurationTarget.Global);
    const long = "x".repeat(900);
    server.queue({ text: `first answer ${long}` }, { text: "## Task\nLong talk." }, { text: "short answer" });
    await sendAndWait(`first question ${long}`);
    await waitFor("answered", () => state().chat.turns.length, (n) => n === 2 && !state().streaming);
    const before = server.chatRequests.length;
    await sendAndWait(`second question ${long}`, 2);
    await waitFor("answered after compaction", () => state().chat.turns, (turns) => turns.length === 3 && (turns[2] as AssistantTurn).status === "done");
    const [compaction, question] = server.chatRequests.slice(before) as { messages: ChatMessage[] }[];
    assert.match(compaction!.messages[0]!.content, /^You write the summary/);
    assert.match(question!.messages[0]!.content, /compacted into this summary[^\n]*\n## Task\nLong talk\./);
    assert.equal((question!.messages.at(-1) as ChatMessage).content, `second question ${long}`);
    const turns = state().chat.turns;
    assert.deepEqual((turns[0] as AssistantTurn).compaction?.auto, true);
    assert.equal((turns[1] as UserTurn).text, `second question ${long}`);
  });

  it("Stop while a question compacts the chat first: neither the summary nor the question is sent, and the question is back in the prompt box", async () => {
    await vscode.workspace.getConfiguration("wisp.chat").update("contextTokens", 1200, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("wisp.chat").update("autoCompact", 50, vscode.ConfigurationTarget.Global);
    const long = "x".repeat(900);
    let endSummary!: () => void;
    server.queue({ text: `first answer ${long}` }, { text: "## Task\n", endAfter: new Promise<void>((resolve) => (endSummary = resolve)) });
    try {
      await sendAndWait(`first question ${long}`);
      await waitFor("answered", () => state().chat.turns.length, (n) => n === 2 && !state().streaming);
      const before = server.chatRequests.length;
      const question = `second question ${long}`;
      const sending = send(question);
      await waitFor("the summary streaming", () => state().chat.turns, (turns) => turns.length === 3 && (turns[2] as AssistantTurn).text === "## Task\n");
      await api.chat.fromView({ type: "stop" });
      await sending;
      assert.equal(server.chatRequests.length, before + 1, "the summary request only, not the question");
      assert.match((server.chatRequests[before] as { messages: ChatMessage[] }).messages[0]!.content, /^You write the summary/);
      assert.deepEqual(state().chat.turns.map((t) => t.role), ["user", "assistant"], "the conversation is as it was");
      assert.equal(state().streaming, false);
      assert.equal(state().view.draft, question);
      assert.equal(state().notice?.text, "Compacting was stopped, so your question was not sent: it is back in the prompt box.");
    } finally {
      endSummary();
    }
  });

  it("/init drafts AGENTS.md from the workspace as a reviewed edit: nothing is written before Accept", async () => {
    rmSync(abs("AGENTS.md"), { force: true });
    write("package.json", JSON.stringify({ name: "greeter", scripts: { build: "tsc -p .", test: "node --test" } }));
    const sessions = () => api.edit.sessions().filter((s) => s.uri.endsWith("/AGENTS.md"));

    await send("/init");
    await waitFor("the draft under review", sessions, (s) => s.length === 1 && s[0]!.state === "reviewing");
    assert.equal(existsSync(abs("AGENTS.md")), false, "not written while under review");
    await vscode.commands.executeCommand("wisp.edit.reject");
    await waitFor("the review ended", sessions, (s) => s.length === 0);
    assert.equal(existsSync(abs("AGENTS.md")), false, "Reject writes nothing");
    await waitFor("the empty draft's tab closed", () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).some((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === "untitled" && t.input.uri.path.endsWith("/AGENTS.md")), (open) => !open);

    await send("/init");
    await waitFor("the draft under review again", sessions, (s) => s.length === 1 && s[0]!.state === "reviewing");
    assert.equal(existsSync(abs("AGENTS.md")), false);
    await vscode.commands.executeCommand("wisp.edit.accept");
    const text = await waitFor("AGENTS.md written", () => (existsSync(abs("AGENTS.md")) ? readFileSync(abs("AGENTS.md"), "utf8") : ""), (t) => t !== "");
    assert.match(text, /^# AGENTS\.md\n/);
    assert.match(text, /## Build and test\n\n- Install: `npm install`\n- Build: `npm run build` \(runs `tsc -p \.`\)\n- Test: `npm test` \(runs `node --test`\)/);
    assert.match(text, /- `package\.json`: Node\.js package/);
  });

  it("/init on an AGENTS.md open with unsaved changes keeps them: Accept saves them with the sections added", async () => {
    // The test before left AGENTS.md open, with every section: the editor takes the new text from the disk.
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    write("AGENTS.md", "# Rules\n\nBe brief.\n");
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(abs("AGENTS.md")));
    await waitFor("the file's text in its document", () => document.getText(), (text) => text === "# Rules\n\nBe brief.\n", watched);
    const editor = await vscode.window.showTextDocument(document);
    assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(3, 0), "Run the linter before a commit.\n")));
    assert.ok(document.isDirty);
    const sessions = () => api.edit.sessions().filter((s) => s.uri.endsWith("/AGENTS.md"));
    await send("/init");
    await waitFor("the draft under review", sessions, (s) => s.length === 1 && s[0]!.state === "reviewing");
    await vscode.commands.executeCommand("wisp.edit.accept");
    const text = await waitFor("AGENTS.md saved", () => readFileSync(abs("AGENTS.md"), "utf8"), (t) => t.includes("## Conventions"));
    assert.match(text, /^# Rules\n\nBe brief\.\nRun the linter before a commit\.\n\n## /);
  });
});
