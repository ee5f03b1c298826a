import * as assert from "node:assert/strict";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import type { ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { agentTaskView, closeAgentSuite, openAgentSuite, toolResults } from "./support/agent-task";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const dir = "task-start";

describe("Agent mode: what a task keeps from the one before (real VS Code, scripted model)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const { ended } = agentTaskView(() => api);
  const count = (text: string) => api.logLines().filter((line) => line.includes(text)).length;
  const rulesRead = () => count("context: read the .gitignore rules of");
  const schemasCompiled = () => count("agent: compiled ");

  before(async () => {
    ({ api, server } = await openAgentSuite("sk-task-start"));
    // With the index off, tasks are the only ones to need the .gitignore rules: each read is a task's.
    await vscode.workspace.getConfiguration("wisp.chat").update("workspaceContext", false, vscode.ConfigurationTarget.Global);
    await waitFor("the index off", () => api.chat.index().state, (state) => state === "off");
    mkdirSync(join(workspace, dir), { recursive: true });
    for (const name of ["kept.txt", "dropped.txt"]) writeFileSync(join(workspace, dir, name), `${name}\n`);
  });
  after(async () => {
    rmSync(join(workspace, dir), { recursive: true, force: true });
    await closeAgentSuite({ api, server }, ["wisp.chat.workspaceContext"]);
  });

  /** One task that lists the folder's text files; what file_search answered. */
  async function listTask(): Promise<string> {
    await api.chat.fromView({ type: "newChat" });
    server.queue({ toolCalls: [{ name: "file_search", arguments: { query: `${dir}/*.txt` } }] }, { text: "Listed." });
    const before = server.chatRequests.length;
    await api.chat.fromView({ type: "send", text: "List the text files" });
    await ended();
    return String(toolResults(server.chatRequests[before + 1]!)[0]);
  }

  it("reads the .gitignore rules and compiles the tool schemas once, until a .gitignore changes: the next task honours the change", async () => {
    assert.match(await listTask(), /dropped\.txt/);
    const [reads, compiles] = [rulesRead(), schemasCompiled()];
    assert.match(await listTask(), /dropped\.txt/);
    assert.equal(rulesRead(), reads, "the second task used the rules the first one read");
    assert.equal(schemasCompiled(), compiles, "the second task compiled no schema");

    const heard = count("the .gitignore rules are read again when next needed");
    writeFileSync(join(workspace, dir, ".gitignore"), "dropped.txt\n");
    await waitFor("the .gitignore change heard", () => count("the .gitignore rules are read again when next needed"), (n) => n > heard);
    const listed = await listTask();
    assert.match(listed, /kept\.txt/);
    assert.doesNotMatch(listed, /dropped\.txt/, "the new .gitignore is honoured");
    assert.equal(rulesRead(), reads + 1, "read again once, after the change");
    assert.equal(schemasCompiled(), compiles, "the tools did not change: no schema compiled");
  });
});
