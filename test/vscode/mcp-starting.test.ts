import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { ChatTool } from "../../src/core/api/chat";
import type { WispApi } from "../../src/extension/extension";
import type { ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { agentTaskView, closeAgentSuite, openAgentSuite } from "./support/agent-task";
import { wispExtensionId } from "./support/wisp-extension";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";

/** The process id a fixture server wrote to `file`, once it has. */
function pidIn(file: string): number | undefined {
  const pid = existsSync(file) ? Number(readFileSync(file, "utf8")) : 0;
  return pid > 0 ? pid : undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe("MCP servers changed, removed or stopped while they start (real VS Code, real MCP servers, scripted model)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const fixture = () => join(vscode.extensions.getExtension(wispExtensionId)!.extensionPath, "test", "fixtures", "mcp", "notes-server.mjs");
  const mcpJson = join(workspace, ".vscode", "mcp.json");
  const scratch = join(workspace, "mcp-starting");
  /** The fixture servers wait for this file before answering initialize. */
  const hold = join(scratch, "hold");
  // Part of each command: a workspace server allowed in an earlier run is asked about again.
  const run = String(Date.now());
  const setServers = (servers: Record<string, unknown> | undefined) => vscode.workspace.getConfiguration("wisp.mcp").update("servers", servers && { servers }, vscode.ConfigurationTarget.Global);
  const serverNames = async () => (await api.mcp.list()).map((s) => s.entry.name).join();
  const pids: number[] = [];

  before(async () => {
    ({ api, server } = await openAgentSuite("sk-mcp-starting-test"));
    rmSync(scratch, { recursive: true, force: true });
    mkdirSync(scratch, { recursive: true });
    mkdirSync(join(workspace, ".vscode"), { recursive: true });
  });
  beforeEach(async () => {
    await api.chat.fromView({ type: "newChat" });
    rmSync(mcpJson, { force: true });
    await setServers(undefined);
    await waitFor("no servers configured", serverNames, (names) => names === "");
  });
  afterEach(async () => {
    await api.chat.fromView({ type: "stop" });
    // The old code's leftovers: a test that failed must not leave a server process behind.
    for (const pid of pids.splice(0)) if (alive(pid)) process.kill(pid);
  });
  after(async () => {
    rmSync(mcpJson, { force: true });
    await setServers(undefined);
    await waitFor("the servers gone", serverNames, (names) => names === "");
    rmSync(scratch, { recursive: true, force: true });
    await closeAgentSuite({ api, server });
  });

  const { asking, ended } = agentTaskView(() => api);
  const offeredMcp = (request: Record<string, unknown>) => (request.tools as ChatTool[]).map((t) => t.function.name).filter((n) => n.startsWith("mcp_"));

  it("a workspace server's command fixed while its start card waits: Allow on that card runs nothing of the old command, and the new one is asked for and runs", async () => {
    const oldPid = join(scratch, "draft-old.pid");
    const draft = (tool: string, env: Record<string, string> = {}) => ({ servers: { draft: { type: "stdio", command: "node", args: [fixture()], env: { NOTES_TOOL: tool, RUN: run, ...env } } } });
    writeFileSync(mcpJson, JSON.stringify(draft("old_tool", { PID_FILE: oldPid })));
    await waitFor("the mcp.json read", () => api.mcp.list(), (list) => list.some((s) => s.runs.includes("old_tool")));
    server.queue({ text: "Started." });
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Use the draft server" });
    const stale = await asking(0);
    assert.match(stale!.command!, /NOTES_TOOL=old_tool/);
    writeFileSync(mcpJson, JSON.stringify(draft("new_tool")));
    await waitFor("the fixed mcp.json read", () => api.mcp.list(), (list) => list.some((s) => s.runs.includes("new_tool")));
    await api.chat.fromView({ type: "agentApproval", stepId: stale!.id, answer: "allow" });
    const fresh = await asking(1);
    assert.match(fresh!.command!, /NOTES_TOOL=new_tool/, "the card shows the command that will run");
    await api.chat.fromView({ type: "agentApproval", stepId: fresh!.id, answer: "allow" });
    await task;
    await ended();
    assert.deepEqual(offeredMcp(server.chatRequests[before]!), ["mcp_draft_new_tool"]);
    assert.equal(existsSync(oldPid), false, "the old command never started");
  });

  it("a server whose setting changes while it starts runs the new one, one removed while it starts ends; neither old process stays", async () => {
    const held = (tool: string) => ({ command: "node", args: [fixture()], env: { NOTES_TOOL: tool, PID_FILE: join(scratch, `${tool}.pid`), HOLD_FILE: hold } });
    await setServers({ changed: held("old_tool"), removed: held("removed_tool") });
    await waitFor("the setting read", serverNames, (names) => names === "changed,removed");
    server.queue({ text: "Started." });
    const before = server.chatRequests.length;
    const task = api.chat.fromView({ type: "send", text: "Use the servers" });
    const started = await waitFor("both started and held", () => ["old_tool", "removed_tool"].map((tool) => pidIn(join(scratch, `${tool}.pid`))), (found) => found.every((pid) => pid !== undefined));
    pids.push(...(started as number[]));
    await setServers({ changed: { command: "node", args: [fixture()], env: { NOTES_TOOL: "new_tool" } } });
    await waitFor("the new setting read", () => api.mcp.list(), (list) => list.length === 1 && list[0]!.runs.includes("new_tool"));
    writeFileSync(hold, "");
    await waitFor("the old processes ended", () => pids.filter(alive), (left) => left.length === 0);
    await task;
    await ended();
    assert.deepEqual(offeredMcp(server.chatRequests[before]!), ["mcp_changed_new_tool"]);
    assert.deepEqual((await api.mcp.list()).map((s) => [s.entry.name, s.state.kind, s.toolNames.join()]), [["changed", "running", "new_tool"]]);
  });

  it("Stop while a server's input is asked for ends the task at once and closes the input box", async () => {
    const id = `token-${run}`;
    await vscode.workspace.getConfiguration("wisp.mcp").update("servers", { servers: { secret: { command: "node", args: [fixture()], env: { NOTES_TOKEN: `\${input:${id}}` } } }, inputs: [{ id, description: "The notes token", password: true }] }, vscode.ConfigurationTarget.Global);
    await waitFor("the setting read", serverNames, (names) => names === "secret");
    const task = api.chat.fromView({ type: "send", text: "Use the notes" });
    const state = async () => (await api.mcp.list())[0]?.state.kind;
    await waitFor("its input asked for", state, (kind) => kind === "starting");
    try {
      await api.chat.fromView({ type: "stop" });
      assert.equal((await ended())?.agent?.end, "stopped");
      await task;
      // The box's answer is all the start waits for: it ends only when the box is gone.
      await waitFor("the input box closed", state, (kind) => kind === "stopped");
    } finally {
      // The old code's box would stay open over the next tests.
      await vscode.commands.executeCommand("workbench.action.closeQuickOpen");
    }
  });
});
