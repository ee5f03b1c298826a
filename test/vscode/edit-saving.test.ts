import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import { waitFor } from "../harness/wait-for";
import { fenced, longAnswer, renamed, replaceLines, sample, useEditSuite } from "./support/edit-suite";

/** The sample as a Windows file: a byte order mark, CRLF line breaks, no line break at the end. */
const windowsText = sample.trimEnd().replace(/\n/g, "\r\n");
const windowsBytes = (text: string) => Buffer.from(`\ufeff${text}`, "utf8");

describe("Edit in place: the file on disk and its tab (real VS Code, scripted chat server)", function () {
  this.timeout(120_000);
  const suite = useEditSuite("saving");
  const { open, session, edit } = suite;
  const saves: string[] = [];
  let listener: vscode.Disposable | undefined;

  before(() => {
    listener = vscode.workspace.onDidSaveTextDocument((document) => saves.push(document.uri.toString()));
  });
  after(async () => {
    listener?.dispose();
    await vscode.workspace.getConfiguration("files").update("autoSaveDelay", undefined, vscode.ConfigurationTarget.Global);
  });

  async function autoSave(mode: "afterDelay" | "onFocusChange"): Promise<void> {
    await vscode.workspace.getConfiguration("files").update("autoSaveDelay", 50, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("files").update("autoSave", mode, vscode.ConfigurationTarget.Global);
  }

  /** The document of the editor the user looks at. */
  const shown = () => vscode.window.activeTextEditor!.document;
  const savesOf = (document: vscode.TextDocument) => saves.filter((uri) => uri === document.uri.toString()).length;
  /** Resolves after `document` is saved once more than `before` times. */
  const savedAgain = (document: vscode.TextDocument, before: number) => waitFor(`a save of ${document.uri.toString()}`, () => savesOf(document), (n) => n > before);
  const tabOf = (document: vscode.TextDocument) =>
    vscode.window.tabGroups.all.flatMap((group) => group.tabs).find((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === document.uri.toString());
  /** Resolves once auto-save has saved what the user sees (nothing changes it while it is reviewed). */
  const reviewSaved = () => waitFor("the proposal's editor saved", () => shown().isDirty, (dirty) => !dirty);

  /** Starts an answer of `steps` lines streaming into the Windows file with auto-save on in `mode`; resolves once its first lines show. */
  async function streamWith(mode: "afterDelay" | "onFocusChange", steps: number, tokensPerSecond: number): Promise<{ editor: vscode.TextEditor; original: Buffer; running: Thenable<unknown> }> {
    await autoSave(mode);
    const original = windowsBytes(windowsText);
    const editor = await open(original, 2, 8);
    suite.server.queue({ text: fenced(longAnswer(steps)), tokensPerSecond });
    const running = edit("spell out the steps");
    await suite.streaming();
    return { editor, original, running };
  }

  async function assertCleanAsBefore(document: vscode.TextDocument, bytes: Buffer, when: string): Promise<void> {
    await waitFor(`the file's tab clean ${when}`, () => [document.isDirty, tabOf(document)?.isDirty], ([dirty, tab]) => dirty === false && tab === false);
    assert.deepEqual(readFileSync(document.uri.fsPath), bytes, `the file's bytes ${when}`);
  }

  it("with auto save after a delay, the file on disk keeps its exact bytes while the answer streams and is reviewed, and after Reject All", async () => {
    const { editor, original, running } = await streamWith("afterDelay", 15, 40);
    // Auto-save has saved what the user sees since the proposal came in.
    await savedAgain(shown(), savesOf(shown()));
    assert.ok(session()?.kinds.includes("added"));
    assert.deepEqual(readFileSync(editor.document.uri.fsPath), original, "the file's bytes while the answer streams");
    await running;
    assert.equal(session()?.state, "reviewing");
    await reviewSaved();
    assert.deepEqual(readFileSync(editor.document.uri.fsPath), original, "the file's bytes while the proposal is reviewed");
    await vscode.commands.executeCommand("wisp.edit.reject");
    assert.deepEqual(suite.api.edit.sessions(), []);
    assert.equal(editor.document.getText(), windowsText);
    await assertCleanAsBefore(editor.document, original, "after Reject All");
  });

  it("with auto save after a delay, the user's typing during the review is saved without the proposal, and Accept saves the decided lines in the file's own bytes", async () => {
    await autoSave("afterDelay");
    const editor = await open(windowsBytes(windowsText), 2, 8);
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    const { id } = session()!;
    await vscode.commands.executeCommand("wisp.edit.rejectHunk", id, 2);
    const typed = "// typed during the review\r\n";
    await vscode.window.activeTextEditor!.edit((e) => e.insert(new vscode.Position(0, 0), typed));
    const file = () => readFileSync(editor.document.uri.fsPath);
    await waitFor("the typing saved, and only the typing", file, (bytes) => bytes.equals(windowsBytes(typed + windowsText)));
    await vscode.commands.executeCommand("wisp.edit.accept", id);
    const accepted = replaceLines(windowsText, 2, 8, renamed.map((line) => line.replace("return sum;", "return result;")), "\r\n");
    await waitFor("the decided lines saved", file, (bytes) => bytes.equals(windowsBytes(typed + accepted)));
  });

  it("with auto save on focus change, the file on disk keeps its bytes while the answer streams and after Stop; Accept's lines reach it on the next focus change", async () => {
    const { editor, original, running } = await streamWith("onFocusChange", 100, 20);
    const proposal = shown();
    const before = savesOf(proposal);
    await vscode.commands.executeCommand("workbench.action.focusSideBar");
    await savedAgain(proposal, before);
    assert.deepEqual(readFileSync(editor.document.uri.fsPath), original, "the file's bytes while the answer streams");
    await vscode.commands.executeCommand("wisp.edit.reject", session()!.id);
    await running;
    await assertCleanAsBefore(editor.document, original, "after Stop");

    await vscode.window.showTextDocument(editor.document);
    vscode.window.activeTextEditor!.selection = new vscode.Selection(2, 0, 8, 1);
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    await vscode.commands.executeCommand("workbench.action.focusSideBar");
    await reviewSaved();
    assert.deepEqual(readFileSync(editor.document.uri.fsPath), original, "the file's bytes while the proposal is reviewed");
    await vscode.commands.executeCommand("wisp.edit.accept", session()!.id);
    const saved = savesOf(editor.document);
    await vscode.commands.executeCommand("workbench.action.focusActiveEditorGroup");
    await vscode.commands.executeCommand("workbench.action.focusSideBar");
    await savedAgain(editor.document, saved);
    assert.deepEqual(readFileSync(editor.document.uri.fsPath), windowsBytes(replaceLines(windowsText, 2, 8, renamed, "\r\n")));
  });

  it("an untitled file with auto save after a delay: the proposal's auto-saves ask nowhere to save it, and Accept puts the decided lines in it, still untitled", async () => {
    await autoSave("afterDelay");
    const document = await vscode.workspace.openTextDocument({ content: sample, language: "typescript" });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(2, 0, 8, 1);
    try {
      suite.server.queue({ text: fenced(renamed) });
      await edit("rename result to sum");
      assert.equal(session()?.state, "reviewing");
      // A save of the untitled file would ask where to put it, and the proposal's save would wait on that question.
      await reviewSaved();
      assert.ok(document.isUntitled && document.isDirty, "the untitled file is still untitled and unsaved");
      await vscode.commands.executeCommand("wisp.edit.accept", session()!.id);
      assert.equal(document.getText(), replaceLines(sample, 2, 8, renamed));
      assert.ok(document.isUntitled, "still untitled after Accept");
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeQuickOpen");
      for (const session of suite.api.edit.sessions()) await vscode.commands.executeCommand("wisp.edit.reject", session.id);
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
  });

  it("closing the proposal's tab, saved by auto-save, rejects the edit and leaves the file as it was", async () => {
    await autoSave("afterDelay");
    const original = Buffer.from(sample);
    const editor = await open(original, 2, 8);
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    await reviewSaved();
    const proposal = tabOf(shown());
    assert.ok(proposal, "the proposal has a tab");
    await vscode.window.tabGroups.close(proposal);
    await waitFor("the edit ended", () => suite.api.edit.sessions().length, (n) => n === 0);
    assert.equal(editor.document.getText(), sample);
    await assertCleanAsBefore(editor.document, original, "after its proposal's tab closed");
  });

  it("Reject All from the diff editor leaves a file that had no unsaved changes clean", async () => {
    const original = Buffer.from(sample);
    const editor = await open(original, 2, 8);
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    await vscode.commands.executeCommand("wisp.edit.showDiff");
    assert.ok(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, "the diff editor is the active tab");
    await vscode.commands.executeCommand("wisp.edit.reject", session()!.id);
    assert.deepEqual(suite.api.edit.sessions(), []);
    assert.equal(editor.document.getText(), sample);
    await assertCleanAsBefore(editor.document, original, "after Reject All from the diff editor");
  });

  it("Stop from another editor leaves a file that had no unsaved changes clean", async () => {
    const original = Buffer.from(sample);
    const editor = await open(original, 2, 8);
    suite.server.queue({ text: fenced(longAnswer(200)), tokensPerSecond: 40 });
    const running = edit("spell out the steps");
    await suite.streaming();
    const other = await open("// another file\n", 0, 0);
    await vscode.window.showTextDocument(other.document, vscode.ViewColumn.Beside);
    await vscode.commands.executeCommand("wisp.edit.reject", session()!.id);
    await running;
    assert.equal(editor.document.getText(), sample);
    await assertCleanAsBefore(editor.document, original, "after Stop from another editor");
  });
});
