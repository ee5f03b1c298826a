import * as assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import type { NextEditView } from "../../src/extension/next-edit/next-edit-controller";
import { waitFor } from "../harness/wait-for";
import { activateWisp, wispExtensionId } from "./support/wisp-extension";

const source = [
  "function sum(items: number[]) {",
  "  let count = 0;",
  "  for (const item of items) {",
  "    count += item;",
  "  }",
  "  // count is the total",
  "  return count;",
  "}",
  "function other() {",
  "  return count;",
  "}",
  "",
].join("\n");

/**
 * Next-edit suggestions from the local predictor in a real VS Code: the user renames a local on its
 * declaration, Wisp proposes each other use in turn, Tab jumps and Tab accepts, Escape dismisses.
 * Keys are the commands the package binds to Tab and Escape while `wisp.nextEditShown` is set.
 */
describe("Next-edit suggestions (real VS Code, local predictor)", function () {
  this.timeout(60_000);
  let api: WispApi;
  let file: string | undefined;

  before(async () => {
    api = await activateWisp();
    // Ghost text would take Tab for itself (inlineSuggestionVisible); this suite is about next edits alone.
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
  });
  afterEach(async () => {
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    if (file) rmSync(file, { force: true });
  });
  after(async () => {
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
  });

  async function open(name: string): Promise<vscode.TextEditor> {
    file = join(process.env.WISP_TEST_WORKSPACE!, name);
    writeFileSync(file, source);
    return vscode.window.showTextDocument(vscode.Uri.file(file));
  }

  /** Selects `count` on the declaration and types `total` over it, key by key. */
  async function renameDeclaration(editor: vscode.TextEditor): Promise<void> {
    const start = new vscode.Position(1, 6);
    editor.selection = new vscode.Selection(start, start.translate(0, "count".length));
    for (const ch of "total") await vscode.commands.executeCommand("type", { text: ch });
  }

  const shown = (what: string, accept: (view: NextEditView | undefined) => boolean) => waitFor(what, () => api.nextEdit.shown(), accept);

  it("renaming a local on its declaration: Tab jumps to each use, Tab accepts, until every use in its function is renamed", async () => {
    const editor = await open("next-edit-rename.ts");
    await renameDeclaration(editor);
    let view = await shown("a suggestion at the next use", (v) => v?.newText === "total");
    console.log(`    next edit shown ${view!.latencyMs.toFixed(1)} ms after the keystroke`);
    assert.ok(view!.latencyMs < 500, `shown ${view!.latencyMs.toFixed(0)} ms after the keystroke`);
    assert.deepEqual({ ...view, latencyMs: 0 }, { uri: editor.document.uri.toString(), line: 3, oldText: "count", newText: "total", hint: "Tab to jump to line 4 · Esc to dismiss", ghost: false, latencyMs: 0 });
    // The cursor never moves by itself.
    assert.deepEqual(editor.selection.active, new vscode.Position(1, 11));

    for (const [line, column] of [[3, 4], [6, 9]] as const) {
      await vscode.commands.executeCommand("wisp.nextEdit.tab");
      assert.deepEqual(editor.selection.active, new vscode.Position(line, column), "Tab jumps to the use");
      assert.equal(api.nextEdit.shown()?.hint, "Tab to accept · Esc to dismiss");
      await vscode.commands.executeCommand("wisp.nextEdit.tab");
      view = api.nextEdit.shown();
    }
    assert.equal(view, undefined, "nothing left to propose");
    // The comment and the other function's `count` are not this variable.
    const expected = source.split("\n");
    for (const line of [1, 3, 6]) expected[line] = expected[line]!.replace("count", "total");
    assert.equal(editor.document.getText(), expected.join("\n"));
  });

  it("Escape dismisses the suggestion, and the same one does not come back at once", async () => {
    const editor = await open("next-edit-dismiss.ts");
    await renameDeclaration(editor);
    await shown("a suggestion", (v) => v?.newText === "total");
    await vscode.commands.executeCommand("wisp.nextEdit.dismiss");
    assert.equal(api.nextEdit.shown(), undefined);
    // Another name is another suggestion...
    await vscode.commands.executeCommand("type", { text: "s" });
    await shown("a rename to totals", (v) => v?.newText === "totals");
    // ...and back to the dismissed one, the predictor runs and offers nothing.
    const runs = api.nextEdit.predictions();
    await vscode.commands.executeCommand("deleteLeft");
    await waitFor("the predictor to run", () => api.nextEdit.predictions(), (n) => n > runs);
    assert.equal(api.nextEdit.shown(), undefined, "the dismissed rename to total is not offered again");
    assert.equal(editor.document.getText(), source.replace("let count", "let total"));
  });

  it("a repeated call change: the next call is offered as ghost text once Tab reaches it, and VS Code's Tab accepts it", async () => {
    file = join(process.env.WISP_TEST_WORKSPACE!, "next-edit-calls.ts");
    writeFileSync(file, "log(a);\nlog(a);\nlog(a);\n");
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
    editor.selection = new vscode.Selection(new vscode.Position(0, 5), new vscode.Position(0, 5));
    for (const ch of ", b") await vscode.commands.executeCommand("type", { text: ch });
    const view = await shown("the next call", (v) => v?.newText === "log(a, b)");
    assert.deepEqual([view!.line, view!.ghost, view!.hint], [1, false, "Tab to jump to line 2 · Esc to dismiss"]);
    await vscode.commands.executeCommand("wisp.nextEdit.tab");
    assert.equal(api.nextEdit.shown()?.ghost, true, "at the cursor, the insertion is ghost text");
    // What the Tab key runs while the inline suggestion is visible: it takes Wisp's item, range and all.
    await waitFor("VS Code's Tab to take the ghost text", async () => {
      await vscode.commands.executeCommand("editor.action.inlineSuggest.commit");
      return editor.document.lineAt(1).text;
    }, (t) => t === "log(a, b);");
    await shown("the call after", (v) => v?.line === 2);
    await vscode.commands.executeCommand("wisp.nextEdit.tab");
    await vscode.commands.executeCommand("wisp.nextEdit.dismiss");
    assert.equal(editor.document.getText(), "log(a, b);\nlog(a, b);\nlog(a);\n");
  });

  it("Tab keeps its usual meaning when nothing is shown: it indents, and the Tab key is bound only while a suggestion is", async () => {
    const editor = await open("next-edit-indent.ts");
    editor.selection = new vscode.Selection(new vscode.Position(11, 0), new vscode.Position(11, 0));
    await vscode.commands.executeCommand("tab");
    assert.equal(api.nextEdit.shown(), undefined);
    assert.notEqual(editor.document.lineAt(11).text.trim(), editor.document.lineAt(11).text, "Tab inserted indentation");
    const bindings = vscode.extensions.getExtension(wispExtensionId)!.packageJSON.contributes.keybindings as { command: string; key: string; when: string }[];
    const tab = bindings.find((b) => b.command === "wisp.nextEdit.tab")!;
    assert.equal(tab.key, "tab");
    for (const clause of ["wisp.nextEditShown", "!suggestWidgetVisible", "!inlineSuggestionVisible", "!inSnippetMode"]) assert.ok(tab.when.split(" && ").includes(clause), clause);
  });

  it("a rename typed with multiple cursors: the remaining use is offered, and the Tab key stays theirs while they are several", async () => {
    const editor = await open("next-edit-cursors.ts");
    editor.selections = [1, 3].map((line) => {
      const start = new vscode.Position(line, editor.document.lineAt(line).text.indexOf("count"));
      return new vscode.Selection(start, start.translate(0, "count".length));
    });
    for (const ch of "total") await vscode.commands.executeCommand("type", { text: ch });
    const view = await shown("the remaining use", (v) => v?.newText === "total");
    assert.deepEqual([view!.line, view!.oldText], [6, "count"]);
    assert.equal(editor.selections.length, 2, "the cursors are still there");
    // Tab with several cursors indents at each of them: jumping to the suggestion would drop them.
    const bindings = vscode.extensions.getExtension(wispExtensionId)!.packageJSON.contributes.keybindings as { command: string; key: string; when: string }[];
    const tab = bindings.find((b) => b.command === "wisp.nextEdit.tab" && b.key === "tab")!;
    assert.ok(tab.when.split(" && ").includes("!editorHasMultipleSelections"), tab.when);
  });

  it("the status menu's toggle turns it off: typing then keeps no copy and predicts nothing; on again, it follows from the text as it is", async () => {
    assert.equal(await vscode.commands.executeCommand("wisp.toggleNextEdit"), false);
    let editor: vscode.TextEditor;
    let runs: number;
    try {
      await waitFor("every document's copy dropped", () => api.nextEdit.followed(), (n) => n === 0);
      editor = await open("next-edit-off.ts");
      runs = api.nextEdit.predictions();
      await renameDeclaration(editor);
      assert.equal(api.nextEdit.followed(), 0, "no copy of the file kept while off");
      assert.equal(api.nextEdit.shown(), undefined);
    } finally {
      assert.equal(await vscode.commands.executeCommand("wisp.toggleNextEdit"), true);
    }
    await waitFor("the open documents followed again", () => api.nextEdit.followed(), (n) => n > 0);
    // One change on: a use renamed as the declaration was. Its suggestion is the only prediction since the toggle.
    await editor.edit((e) => e.replace(new vscode.Range(3, 4, 3, 9), "total"));
    await shown("the remaining use offered", (v) => v?.newText === "total" && v.line === 6);
    assert.equal(api.nextEdit.predictions(), runs + 1, "the keystrokes typed while off were not considered");
  });

  it("leaving for another file drops the suggestion", async () => {
    const editor = await open("next-edit-leave.ts");
    await renameDeclaration(editor);
    await shown("a suggestion", (v) => v !== undefined);
    const other = await vscode.workspace.openTextDocument({ content: "x", language: "plaintext" });
    await vscode.window.showTextDocument(other);
    await shown("no suggestion", (v) => v === undefined);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
  });
});
