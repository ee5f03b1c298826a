import * as assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ChatTool } from "../../src/core/api/chat";
import type { WispApi } from "../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { agentTaskView, toolResults } from "./support/agent-task";
import { activateWisp, resetWisp, setBaseUrl, wispExtensionId } from "./support/wisp-extension";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";

/** Starts the fixture server over Streamable HTTP; resolves with its URL once it listens. */
function httpNotesServer(tool: string): Promise<{ url: string; process: ChildProcess }> {
  const fixture = join(vscode.extensions.getExtension(wispExtensionId)!.extensionPath, "test", "fixtures", "mcp", "notes-server.mjs");
  const child = spawn("node", [fixture, "--http"], { env: { PATH: process.env.PATH ?? "", NOTES_TOOL: tool }, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the HTTP fixture server exited (${code})`)));
    child.stdout!.once("data", (data: Buffer) => resolve({ url: `http://127.0.0.1:${JSON.parse(String(data)).port}/mcp`, process: child }));
  });
}

describe("MCP servers' tools in agent mode (real VS Code, real MCP servers, scripted model)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const fixture = () => join(vscode.extensions.getExtension(wispExtensionId)!.extensionPath, "test", "fixtures", "mcp", "notes-server.mjs");
  const notes = join(workspace, "mcp-notes.txt");
  const mcpJson = join(workspace, ".vscode", "mcp.json");
  const http: ChildProcess[] = [];

  before(async () => {
    api = await activateWisp();
    server = await startScriptedChatServer({ key: "sk-mcp-test" });
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
    await api.chat.fromView({ type: "setMode", mode: "agent" });
    rmSync(notes, { force: true });
    mkdirSync(join(workspace, ".vscode"), { recursive: true });
    writeFileSync(mcpJson, JSON.stringify({ servers: { notes: { type: "stdio", command: "node", args: [fixture()], env: { NOTES_FILE: notes } } } }, null, 2));
    await waitFor("the mcp.json read", () => api.mcp.list(), (list) => list.some((s) => s.entry.name === "notes"));
  });
  beforeEach(() => api.chat.fromView({ type: "newChat" }));
  // A test that failed while a card waited leaves its task running: stopped, so the next starts clean.
  afterEach(() => api.chat.fromView({ type: "stop" }));
  after(async () => {
    await api.chat.fromView({ type: "setMode", mode: "ask" });
    // The suites after this one start from an empty chat, as in a fresh window.
    await api.chat.fromView({ type: "newChat" });
    await vscode.workspace.getConfiguration("wisp.mcp").update("servers", undefined, vscode.ConfigurationTarget.Global);
    rmSync(mcpJson, { force: true });
    await waitFor("the servers gone", () => api.mcp.list(), (list) => list.length === 0);
    rmSync(notes, { force: true });
    for (const child of http) child.kill();
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
    await resetWisp();
    await server?.close();
  });

  const { answer, steps, asking, ended } = agentTaskView(() => api);

  it("a workspace server's first start asks with its command line; its tool reaches the model with its schema; an approved call runs it", async () => {
    server.queue({ toolCalls: [{ name: "mcp_notes_add_note", arguments: { text: "buy milk" } }] }, { text: "Noted." });
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Note: buy milk" });
    const start = await asking(0);
    assert.equal(start!.title, "start MCP server notes");
    // A path with spaces (a clone in "my projects/") is shown quoted, as a shell would need it.
    const path = fixture();
    assert.equal(start!.command, `node ${/\s/.test(path) ? JSON.stringify(path) : path}`);
    assert.equal(server.chatRequests.length, before, "nothing is asked of the model before the server is allowed");
    await api.chat.fromView({ type: "agentApproval", stepId: start!.id, answer: "allow" });
    const call = await asking(1);
    assert.equal(call!.title, "notes: add_note");
    const offered = (server.chatRequests[before]!.tools as ChatTool[]).find((t) => t.function.name === "mcp_notes_add_note");
    assert.deepEqual(offered?.function.parameters, { type: "object", properties: { text: { type: "string", description: "The note" } }, required: ["text"], additionalProperties: false });
    assert.equal(existsSync(notes), false, "the call waits for approval");
    await api.chat.fromView({ type: "agentApproval", stepId: call!.id, answer: "allow" });
    await task;
    await ended();
    assert.equal(readFileSync(notes, "utf8"), "buy milk\n");
    assert.deepEqual(toolResults(server.chatRequests[before + 1]!), ["noted: buy milk\n[image: image/png, 8 bytes]"]);
    assert.equal(answer()!.text, "Noted.");
  });

  it("Deny does not call the tool, and the model is told; the started server is not asked about again", async () => {
    server.queue({ toolCalls: [{ name: "mcp_notes_add_note", arguments: { text: "never" } }] }, { text: "Not noted." });
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Note: never" });
    const call = await asking(0);
    assert.equal(call!.title, "notes: add_note");
    await api.chat.fromView({ type: "agentApproval", stepId: call!.id, answer: "deny" });
    await task;
    await ended();
    assert.equal(readFileSync(notes, "utf8"), "buy milk\n");
    assert.deepEqual(toolResults(server.chatRequests[before + 1]!), ["Error: The user denied this call of add_note; it was not made."]);
  });

  it("a server that crashes on start is one message with its stderr in the output, and the agent goes on without it", async () => {
    await vscode.workspace.getConfiguration("wisp.mcp").update("servers", { servers: { broken: { command: "node", args: [fixture()], env: { CRASH_ON_START: "1" } } } }, vscode.ConfigurationTarget.Global);
    await waitFor("the setting read", () => api.mcp.list(), (list) => list.some((s) => s.entry.name === "broken"));
    server.queue({ text: "Done without it." });
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Do something" });
    await ended();
    await task;
    const failed = steps().find((s) => s.title === "MCP server broken failed");
    assert.equal(failed?.status, "failed");
    assert.match(failed!.note ?? "", /^failed to start: /);
    assert.ok(api.mcp.outputLines().some((line) => line.includes("cannot open the notes database")), "the server's stderr is in the output channel");
    assert.ok((server.chatRequests[before]!.tools as ChatTool[]).some((t) => t.function.name === "read_file"), "the agent's own tools are offered");
    assert.equal(answer()!.text, "Done without it.");
    await vscode.workspace.getConfiguration("wisp.mcp").update("servers", undefined, vscode.ConfigurationTarget.Global);
  });

  it("a Streamable HTTP server from the user setting starts without asking, and a change of its config restarts it", async () => {
    const first = await httpNotesServer("first_tool");
    const second = await httpNotesServer("second_tool");
    http.push(first.process, second.process);
    // Only the user's server: the workspace's would wait for its own approval card.
    rmSync(mcpJson, { force: true });
    await waitFor("the workspace server gone", () => api.mcp.list(), (list) => !list.some((s) => s.entry.name === "notes"));
    await vscode.workspace.getConfiguration("wisp.mcp").update("servers", { servers: { web: { type: "http", url: first.url } } }, vscode.ConfigurationTarget.Global);
    await waitFor("the setting read", () => api.mcp.list(), (list) => list.some((s) => s.entry.name === "web"));
    server.queue({ text: "Listed." });
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "What tools do you have?" });
    await ended();
    await task;
    assert.ok((server.chatRequests[before]!.tools as ChatTool[]).some((t) => t.function.name === "mcp_web_first_tool"));
    assert.equal(steps().filter((s) => s.status === "asking").length, 0);
    await vscode.workspace.getConfiguration("wisp.mcp").update("servers", { servers: { web: { type: "http", url: second.url } } }, vscode.ConfigurationTarget.Global);
    await waitFor("web restarted on its new config", () => api.mcp.list(), (list) => list.find((s) => s.entry.name === "web")?.toolNames.join() === "second_tool");
  });
});
