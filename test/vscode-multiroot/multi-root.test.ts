import * as assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as vscode from "vscode";
import { codeBlockPath } from "../../src/core/chat/code-block-path";
import type { UserTurn } from "../../src/core/chat/conversation";
import { waitFor } from "../harness/wait-for";
import { agentTaskView, closeAgentSuite, openAgentSuite, toolResults, type AgentSuite } from "../vscode/support/agent-task";

// The runner opens test/vscode-multiroot's workspace.json: folders alpha and beta, in this folder.
const workspace = process.env.WISP_TEST_WORKSPACE ?? "";

const greet = (name: string) => `export function greet(): string {\n  return "${name}";\n}\n// ${name} marker wispMultiRoot\n`;
// The same path in both folders, and a file only beta has.
const files: Record<string, string> = {
  "alpha/src/index.ts": greet("alpha"),
  "beta/src/index.ts": greet("beta"),
  "beta/src/only-beta.ts": 'export const betaOnly = "wispBetaOnly";\n',
};

describe("A multi-root workspace: paths name one file (real VS Code, two folders, scripted model)", function () {
  this.timeout(120_000);
  let suite: AgentSuite;
  const abs = (path: string) => join(workspace, path);
  const read = (path: string) => (existsSync(abs(path)) ? readFileSync(abs(path), "utf8") : undefined);
  const { answer, ended } = agentTaskView(() => suite.api);

  before(async () => {
    suite = await openAgentSuite("sk-multi-root-test");
    assert.deepEqual(vscode.workspace.workspaceFolders?.map((f) => f.name), ["alpha", "beta"], "the runner opened both folders");
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(abs(path)), { recursive: true });
      writeFileSync(abs(path), text);
    }
    // @file lists the index's files by the name the chat gives them: each folder's src/index.ts, under its folder.
    await waitFor(
      "both folders' files indexed",
      () => suite.api.chat.mentions("file", "index"),
      (items) => ["alpha/src/index.ts", "beta/src/index.ts"].every((path) => items.some((i) => i.detail === path)),
      60_000,
    );
  });
  beforeEach(async () => {
    for (const [path, text] of Object.entries(files)) writeFileSync(abs(path), text);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await suite.api.chat.fromView({ type: "newChat" });
  });
  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const folder of ["alpha", "beta"]) rmSync(abs(`${folder}/src`), { recursive: true, force: true });
    await closeAgentSuite(suite);
  });

  it("a selection in beta's src/index.ts goes as beta/src/index.ts, and Apply on the answer's block edits beta's file, not alpha's", async () => {
    await suite.api.chat.fromView({ type: "setMode", mode: "ask" });
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(abs("beta/src/index.ts")));
    editor.selection = new vscode.Selection(0, 0, 3, 0);
    await vscode.commands.executeCommand("wisp.askAboutSelection");
    assert.deepEqual(suite.api.chat.state().chat.pending.map((a) => a.path), ["beta/src/index.ts"]);

    const block = ["// beta/src/index.ts", "export function greet(): string {", '  return "BETA";', "}"];
    suite.server.queue({ text: `Upper-case it:\n\n\`\`\`ts\n${block.join("\n")}\n\`\`\`\n` });
    await suite.api.chat.fromView({ type: "send", text: "Make it shout." });
    const question = suite.api.chat.state().chat.turns.filter((t): t is UserTurn => t.role === "user").at(-1)!;
    assert.deepEqual(question.attachments.map((a) => a.path), ["beta/src/index.ts"]);
    const sent = JSON.stringify(suite.server.chatRequests.at(-1)!.messages);
    assert.ok(sent.includes("beta/src/index.ts"), "the model is told which folder's file it is");

    // The path the chat view reads off the block, as its Apply button sends it.
    const path = codeBlockPath(block[0]!, []);
    assert.equal(path, "beta/src/index.ts");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await suite.api.chat.fromView({ type: "codeAction", action: "apply", code: `${block.slice(1).join("\n")}\n`, language: "typescript", path });
    assert.equal(vscode.window.activeTextEditor?.document.uri.fsPath, vscode.Uri.file(abs("beta/src/index.ts")).fsPath, "Apply opened beta's file");
    assert.equal(suite.api.edit.sessions()[0]?.state, "reviewing");
    await vscode.commands.executeCommand("wisp.edit.accept");
    const document = vscode.window.activeTextEditor!.document;
    await document.save();
    assert.equal(read("beta/src/index.ts"), greet("beta").replace('"beta"', '"BETA"'));
    assert.equal(read("alpha/src/index.ts"), greet("alpha"), "alpha's src/index.ts is left alone");
    assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.fsPath === vscode.Uri.file(abs("alpha/src/index.ts")).fsPath && d.isDirty));
  });

  it("Apply on a path that both folders have, without a folder, edits neither and says so", async () => {
    await suite.api.chat.fromView({ type: "setMode", mode: "ask" });
    const failed = await suite.api.chat
      .fromView({ type: "codeAction", action: "apply", code: 'export function greet(): string {\n  return "WHICH";\n}\n', language: "typescript", path: "src/index.ts" })
      .then(() => undefined, (error: Error) => error.message);
    assert.match(failed ?? suite.api.chat.state().notice?.text ?? "", /src\/index\.ts is not a file of this workspace/);
    assert.deepEqual(suite.api.edit.sessions(), [], "no change opened for review");
    assert.equal(read("alpha/src/index.ts"), greet("alpha"));
    assert.equal(read("beta/src/index.ts"), greet("beta"));
  });

  it("the agent works in alpha: its search reports alpha's lines only, never beta's under alpha's paths", async () => {
    await suite.api.chat.fromView({ type: "setMode", mode: "agent" });
    const requests = suite.server.chatRequests.length;
    suite.server.queue(
      { toolCalls: [{ name: "grep_search", arguments: { query: "wispBetaOnly" } }] },
      { toolCalls: [{ name: "grep_search", arguments: { query: "wispMultiRoot" } }] },
      { text: "Searched." },
    );
    await suite.api.chat.fromView({ type: "send", text: "Where are the markers?" });
    await ended();
    const sent = suite.server.chatRequests.slice(requests);
    assert.equal(toolResults(sent[1]!).at(-1), "No matches.", "beta's only-beta.ts is not reported as alpha's src/only-beta.ts");
    const shared = toolResults(sent[2]!).at(-1)!;
    assert.match(shared, /^src\/index\.ts:4: \/\/ alpha marker wispMultiRoot$/m);
    assert.ok(!shared.includes("beta marker"), shared);
    // The model is told why beta's files are out of reach.
    assert.match(String((sent[0]!.messages as { content: unknown }[])[0]!.content), /other folders too \("beta"\): your tools do not reach them/);
    assert.equal(answer()?.status, "done");
  });

  it("the agent's edit lands in alpha's src/index.ts, beta's stays, and Undo restores alpha's file", async () => {
    await suite.api.chat.fromView({ type: "setMode", mode: "agent" });
    suite.server.queue(
      { toolCalls: [{ name: "replace_string_in_file", arguments: { path: "src/index.ts", old_string: 'return "alpha";', new_string: 'return "ALPHA";' } }] },
      { toolCalls: [{ name: "replace_string_in_file", arguments: { path: "src/only-beta.ts", old_string: "wispBetaOnly", new_string: "renamed" } }] },
      { text: "Done." },
    );
    await suite.api.chat.fromView({ type: "send", text: "Shout in greet, and rename the beta marker." });
    const turn = (await ended())!;
    assert.equal(read("alpha/src/index.ts"), greet("alpha").replace('"alpha"', '"ALPHA"'));
    assert.equal(read("beta/src/index.ts"), greet("beta"), "beta's file of the same path is untouched");
    assert.equal(read("beta/src/only-beta.ts"), files["beta/src/only-beta.ts"], "beta's file is out of the agent's reach");
    assert.equal(read("alpha/src/only-beta.ts"), undefined, "and no file of that name was made in alpha");
    assert.deepEqual(turn.agent!.files.map((f) => f.path), ["src/index.ts"]);

    await suite.api.chat.fromView({ type: "agentReview", turnId: turn.id, action: "undo" });
    await waitFor("the change undone", () => answer()!.agent!.files.map((f) => f.review), (reviews) => reviews.every((r) => r === "undone"));
    assert.equal(read("alpha/src/index.ts"), greet("alpha"), "Undo restored alpha's file");
    assert.equal(read("beta/src/index.ts"), greet("beta"));
  });
});
