import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { AssistantTurn, UserTurn } from "../../src/core/chat/conversation";
import { quickActions } from "../../src/core/chat/prompt";
import type { WispApi } from "../../src/extension/extension";
import { startLocalTextServer, type LocalTextServer } from "../harness/local-text-server";
import { waitFor } from "../harness/wait-for";
import { activateWisp, resetWisp, setBaseUrl, wispExtensionId } from "./support/wisp-extension";

const sample = ["def total(values):", "    result = 0", "    for v in values:", "        result += v", "    return result", ""].join("\n");

describe("Chat panel against the local server (real VS Code)", function () {
  this.timeout(180_000);
  let api: WispApi;
  let server: LocalTextServer;
  const file = join(process.env.WISP_TEST_WORKSPACE ?? "", "sample.py");

  before(async () => {
    api = await activateWisp();
    const root = vscode.extensions.getExtension(wispExtensionId)!.extensionPath;
    // The larger generated model streams at a pace that leaves time to hide the view mid-answer;
    // endless, so every answer runs to wisp.chat.maxTokens.
    server = await startLocalTextServer(root, { size: "large", endless: true });
    await setBaseUrl(server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    await chatSettings({ maxTokens: 200 });
    // Ghost text off: its warm-ups on opening a file would reach the same server and count as requests.
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
    writeFileSync(file, sample);
  });
  after(async () => {
    await chatSettings({ maxTokens: undefined, contextTokens: undefined });
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    rmSync(file, { force: true });
    await resetWisp();
    await server?.stop();
  });

  const state = () => api.chat.state();
  const lastTurn = <T extends UserTurn | AssistantTurn>(role: T["role"]) => state().chat.turns.filter((t) => t.role === role).at(-1) as T | undefined;
  const idle = () => waitFor("the server idle", () => server.metrics(), (m) => m.sequences.busy === 0 && m.sequences.waiting === 0);

  /** Opens sample.py with lines `from`-`to` (1-based) selected, or just the cursor on line 1. */
  async function openSample(from?: number, to?: number): Promise<vscode.TextEditor> {
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = from === undefined ? new vscode.Selection(0, 0, 0, 0) : new vscode.Selection(from - 1, 0, to!, 0);
    return editor;
  }

  it("Explain sends the selected lines with the file, language and line range; the answer and its token usage land in the chat", async () => {
    await openSample(2, 4);
    const before = await idle();
    await vscode.commands.executeCommand("wisp.chat.explain");
    const question = lastTurn<UserTurn>("user")!;
    assert.equal(question.text, quickActions.explain.prompt);
    assert.equal(question.attachments.length, 1);
    const [attached] = question.attachments;
    assert.deepEqual({ ...attached, id: "" }, { id: "", path: "sample.py", language: "python", startLine: 2, endLine: 4, text: "    result = 0\n    for v in values:\n        result += v", source: "selection" });
    const answer = lastTurn<AssistantTurn>("assistant")!;
    assert.equal(answer.status, "done");
    assert.equal(answer.model, server.model);
    const after = await idle();
    assert.equal(after.requests - before.requests, 1);
    assert.equal(answer.usage?.completion_tokens, after.completionTokens - before.completionTokens);
    assert.ok(answer.text.length > 0);
    // The context window is what the server reports for the model.
    assert.deepEqual({ tokens: state().setup.contextTokens, source: state().setup.contextSource }, { tokens: 4096, source: "server" });
    assert.equal(state().chat.title, quickActions.explain.prompt, "a new chat is named after its first message");
  });

  it("without a selection, Ask About Selection attaches the visible part of the file, says so, and shows the panel", async () => {
    await openSample();
    await vscode.commands.executeCommand("wisp.askAboutSelection");
    const [pending] = state().chat.pending;
    assert.equal(pending?.source, "visible");
    assert.equal(pending?.startLine, 1);
    assert.equal(pending?.text, sample);
    assert.match(state().notice?.text ?? "", /^Nothing was selected: attached the visible part of sample\.py \(lines 1-\d+\)\.$/);
    await waitFor("the chat view", () => api.chat.viewReady(), (ready) => ready);
  });

  it("an answer keeps streaming into the chat while the view is hidden, and shows in full when it is back", async () => {
    await chatSettings({ maxTokens: 800 });
    await vscode.commands.executeCommand("wisp.chat.focus");
    await waitFor("the chat view", () => api.chat.viewReady(), (ready) => ready);
    const { aborted } = await idle();
    // The new answer, not the one before it (which has text): the command adds it asynchronously.
    const previous = lastTurn<AssistantTurn>("assistant")?.id;
    const answered = vscode.commands.executeCommand("wisp.askAboutSelection", "Go on");
    await waitFor("text streaming in", () => lastTurn<AssistantTurn>("assistant"), (t) => t !== undefined && t.id !== previous && t.text.length > 0, 60_000);
    await vscode.commands.executeCommand("workbench.action.closeSidebar");
    await waitFor("the view hidden", () => api.chat.viewReady(), (ready) => !ready);
    const shown = lastTurn<AssistantTurn>("assistant")!;
    assert.equal(shown.status, "streaming", "the answer was still streaming when the view was hidden");
    const hiddenAt = shown.text.length;
    await answered;
    const ended = lastTurn<AssistantTurn>("assistant")!;
    assert.equal((await idle()).aborted, aborted, "hiding the view did not stop the answer");
    assert.equal(ended.status, "done");
    assert.equal(ended.usage?.completion_tokens, 800, "the whole answer");
    assert.ok(ended.text.length > hiddenAt, `${ended.text.length} characters at the end, ${hiddenAt} when hidden`);
    await vscode.commands.executeCommand("wisp.chat.focus");
    await waitFor("the chat view back", () => api.chat.viewReady(), (ready) => ready);
    await chatSettings({ maxTokens: 200 });
  });

  it("older turns are left out to fit a small context window, and the user is told", async () => {
    // Without compaction (wisp.chat.autoCompact 0): left out is what happens then.
    await chatSettings({ contextTokens: 500, maxTokens: 50, autoCompact: 0 });
    await vscode.commands.executeCommand("wisp.newChat");
    await openSample(1, 1);
    for (let i = 0; i < 4; i++) await vscode.commands.executeCommand("wisp.askAboutSelection", `question ${i}: ${"why is this so? ".repeat(30)}`);
    const answer = lastTurn<AssistantTurn>("assistant")!;
    assert.equal(answer.status, "done", answer.error?.message);
    assert.ok((answer.droppedMessages ?? 0) > 0, "messages were left out");
    assert.match(state().notice?.text ?? "", /earlier messages? (was|were) left out to fit the model's context of 500 tokens \(from wisp\.chat\.contextTokens\)\.$/);
    await chatSettings({ contextTokens: undefined, maxTokens: 200, autoCompact: undefined });
  });

  it("a failed request shows in the chat with its kind, so the panel can offer the way out", async () => {
    await vscode.commands.executeCommand("wisp.clearApiKey");
    try {
      await openSample(1, 2);
      await vscode.commands.executeCommand("wisp.askAboutSelection", "hello?");
      const answer = lastTurn<AssistantTurn>("assistant")!;
      assert.equal(answer.status, "error");
      assert.equal(answer.error?.kind, "no-key");
      assert.match(answer.error?.message ?? "", /Set API Key/);
    } finally {
      await vscode.commands.executeCommand("wisp.setApiKey", server.key);
    }
  });

  it("Copy under an answer puts its Markdown on the clipboard and says so", async () => {
    await api.chat.fromView({ type: "send", text: "Say hello." });
    const answer = await waitFor("the answer", () => lastTurn<AssistantTurn>("assistant"), (turn) => turn?.status === "done");
    await vscode.env.clipboard.writeText("");
    await api.chat.fromView({ type: "copyAnswer", turnId: answer!.id });
    assert.equal(await vscode.env.clipboard.readText(), answer!.text);
    assert.equal(state().notice?.text, "Copied the answer.");
  });

  it("New Chat starts an empty chat and keeps the others", async () => {
    const before = state().chats.length;
    const previous = state().chat.id;
    await vscode.commands.executeCommand("wisp.newChat");
    assert.equal(state().chat.turns.length, 0);
    assert.notEqual(state().chat.id, previous);
    assert.equal(state().chats.length, before + 1);
    assert.ok(state().chats.some((c) => c.id === previous));
    await api.chat.flush();
  });
});

async function chatSettings(values: { maxTokens?: number; contextTokens?: number; autoCompact?: number }): Promise<void> {
  const config = vscode.workspace.getConfiguration("wisp.chat");
  for (const [key, value] of Object.entries(values)) await config.update(key, value, vscode.ConfigurationTarget.Global);
}
