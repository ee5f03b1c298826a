import * as assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import { waitFor } from "../harness/wait-for";
import { fenced, longAnswer, renamed, replaceLines, sample, useEditSuite } from "./support/edit-suite";

/** The settings users turn on that make every save, auto-save included, change the text. */
const saveSettings = { trimTrailingWhitespace: true, insertFinalNewline: true, trimFinalNewlines: true };

/** A file as others leave it: trailing spaces on a line outside the edit, no line break at the end. */
const untidy = sample.replace("const header = 1;", "const header = 1;   ").trimEnd();
/** The same file as a save under saveSettings writes it. */
const tidy = (text: string) => `${text.replace(/[ \t]+$/gm, "")}\n`;
/** Models often end lines with spaces. */
const spaced = (lines: readonly string[]) => lines.map((line) => (line.startsWith("  ") ? `${line}   ` : line));

describe("Edit in place under save settings that change the text: trim whitespace, final newlines (real VS Code, scripted chat server)", function () {
  this.timeout(120_000);
  const suite = useEditSuite("save-settings");
  const { open, session, edit } = suite;

  before(async () => {
    const files = vscode.workspace.getConfiguration("files");
    for (const [name, value] of Object.entries(saveSettings)) await files.update(name, value, vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    const files = vscode.workspace.getConfiguration("files");
    for (const name of [...Object.keys(saveSettings), "autoSaveDelay"]) await files.update(name, undefined, vscode.ConfigurationTarget.Global);
  });

  async function autoSaveAfterDelay(): Promise<void> {
    await vscode.workspace.getConfiguration("files").update("autoSaveDelay", 50, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("files").update("autoSave", "afterDelay", vscode.ConfigurationTarget.Global);
  }

  const bytesOf = (editor: vscode.TextEditor) => readFileSync(editor.document.uri.fsPath, "utf8");
  /** Resolves once auto-save has saved the proposal's editor and its save settings have run there. */
  const savedWithSettings = (what: string) =>
    waitFor(`the proposal's editor auto-saved, its final newline added and the header trimmed (${what})`, () => {
      const review = suite.review();
      return { dirty: review.isDirty, finalNewline: review.getText().endsWith("\n"), header: review.lineAt(0).text };
    }, (seen) => !seen.dirty && seen.finalNewline && seen.header === "const header = 1;");

  /** Opens the untidy file with auto-save on, and resolves once the proposal of `renamed` is reviewed and auto-saved. */
  async function reviewRenamed(what: string): Promise<vscode.TextEditor> {
    await autoSaveAfterDelay();
    const editor = await open(untidy, 2, 8);
    suite.server.queue({ text: fenced(spaced(renamed)) });
    await edit("rename result to sum");
    await savedWithSettings(what);
    assert.equal(session()?.state, "reviewing");
    return editor;
  }

  it("while the answer streams and is reviewed, the saves trim the proposal and add a final newline in its editor only: the edit goes on, the file keeps its bytes, and Reject leaves it as it was", async () => {
    await autoSaveAfterDelay();
    const editor = await open(untidy, 2, 8);
    let end = () => {};
    suite.server.queue({ text: fenced(spaced(longAnswer(15))), endAfter: new Promise<void>((resolve) => (end = resolve)) });
    const running = edit("spell out the steps");
    await waitFor("every proposed line shown", () => session()?.kinds.filter((kind) => kind === "added").length ?? 0, (added) => added >= 15);
    await savedWithSettings("while the answer streams");
    assert.equal(session()?.state, "streaming", "the edit goes on while the answer streams");
    assert.equal(bytesOf(editor), untidy, "the file's bytes while the answer streams");
    end();
    await running;
    assert.equal(session()?.state, "reviewing", "the answer is reviewed");
    await savedWithSettings("while the proposal is reviewed");
    assert.ok(suite.review().getText().includes("  const step0 = values.length + 0;\n"), "the proposed lines are shown as the save tidied them");
    assert.equal(bytesOf(editor), untidy, "the file's bytes while the proposal is reviewed");
    await vscode.commands.executeCommand("wisp.edit.reject");
    assert.deepEqual(suite.api.edit.sessions(), []);
    assert.equal(editor.document.getText(), untidy);
    await waitFor("the file's tab clean after Reject All", () => editor.document.isDirty, (dirty) => !dirty);
    assert.equal(bytesOf(editor), untidy, "the file's bytes after Reject All");
  });

  it("Accept writes the decided lines, and the file's own save tidies them as these settings ask", async () => {
    const editor = await reviewRenamed("while the proposal is reviewed");
    assert.equal(bytesOf(editor), untidy, "the file's bytes while the proposal is reviewed");
    await vscode.commands.executeCommand("wisp.edit.accept", session()!.id);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), editor.document.uri.toString(), "the file is back in its tab");
    const accepted = tidy(replaceLines(untidy, 2, 8, renamed));
    await waitFor("the decided lines saved, tidied", () => bytesOf(editor), (bytes) => bytes === accepted);
  });

  it("an edit of the last line, which has no line break: the final newline a save adds in the proposal's editor does not stop it, and Accept writes the decided line", async () => {
    await autoSaveAfterDelay();
    const editor = await open(untidy, 10, 10);
    suite.server.queue({ text: fenced(["export const footer = 3;"]) });
    await edit("make it 3");
    await savedWithSettings("while the proposal of the last line is reviewed");
    assert.equal(session()?.state, "reviewing", "the edit goes on");
    assert.equal(bytesOf(editor), untidy, "the file's bytes while the proposal is reviewed");
    await vscode.commands.executeCommand("wisp.edit.accept", session()!.id);
    await waitFor("the decided line saved, tidied", () => bytesOf(editor), (bytes) => bytes === tidy(untidy.replace("footer = 2;", "footer = 3;")));
  });

  it("typing outside the edited lines during the review is saved with the save's own changes, and Accept then writes the decided lines", async () => {
    const editor = await reviewRenamed("before the typing");
    const typed = "// typed during the review\n";
    await vscode.window.activeTextEditor!.edit((e) => e.insert(new vscode.Position(0, 0), typed));
    await waitFor("the typing saved, tidied as a save of the file does", () => bytesOf(editor), (bytes) => bytes === tidy(typed + untidy));
    assert.equal(session()?.state, "reviewing");
    await vscode.commands.executeCommand("wisp.edit.accept", session()!.id);
    const accepted = tidy(typed + replaceLines(untidy, 2, 8, renamed));
    await waitFor("the decided lines saved", () => bytesOf(editor), (bytes) => bytes === accepted);
  });
});
