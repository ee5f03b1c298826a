import * as assert from "node:assert/strict";
import { readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { waitFor } from "../harness/wait-for";
import { fenced, longAnswer, renamed, replaceLines, sample, useEditSuite } from "./support/edit-suite";
import { writeNotebook } from "./support/notebook-file";
import { writeFileSeen } from "./support/write-file-seen";

describe("Edit in place (real VS Code, scripted chat server)", function () {
  this.timeout(120_000);
  const suite = useEditSuite("edit");
  const { open, session, edit, review } = suite;
  const active = () => vscode.window.activeTextEditor!;

  /** The document has the sample's text and no unsaved changes, and its file was not written since `written`. */
  async function assertSavedAsBefore(document: vscode.TextDocument, written: number): Promise<void> {
    assert.equal(document.getText(), sample);
    await waitFor("the file to show no unsaved changes", () => document.isDirty, (dirty) => !dirty);
    assert.equal(readFileSync(document.uri.fsPath, "utf8"), sample);
    assert.equal(statSync(document.uri.fsPath).mtimeMs, written, "the file was not saved");
  }

  /** Types in the active editor; a streamed line landing at the same moment refuses the edit, which is then typed again. */
  const typeWhileStreaming = (at: vscode.Position, text: string) =>
    waitFor("the typing taken", async () => active().edit((e) => e.insert(at, text)), (taken) => taken);
  const lastRequest = () => suite.server.chatRequests.at(-1) as { model: string; messages: { role: string; content: string }[] };

  it("streams the answer in as a diff, and Accept gives the exact text in one undo step", async () => {
    const editor = await open(sample, 2, 8);
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    const shown = session()!;
    assert.equal(shown.state, "reviewing");
    assert.equal(shown.hunks, 3);
    assert.deepEqual(shown.kinds, ["same", "removed", "added", "same", "removed", "added", "same", "removed", "added", "same"]);
    assert.equal(review().lineAt(3).text, "  let result = 0;");
    assert.equal(review().lineAt(4).text, "  let sum = 0;");
    assert.equal(editor.document.getText(), sample, "the file itself keeps the original lines");

    const request = lastRequest();
    assert.equal(request.model, "scripted-chat");
    const user = request.messages.at(-1)!.content;
    assert.match(user, new RegExp(`^File: ${vscode.workspace.asRelativePath(editor.document.uri)} \\(typescript\\)`));
    assert.match(user, /The block, lines 3-9:\n```typescript\nfunction total/);
    assert.match(user, /Lines 1-2, before the block/);
    assert.match(user, /Instruction: rename result to sum/);

    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), replaceLines(sample, 2, 8, renamed));
    assert.deepEqual(suite.api.edit.sessions(), []);
    await vscode.commands.executeCommand("undo");
    assert.equal(editor.document.getText(), sample, "one undo gives the original back");
  });

  it("Reject leaves the document byte-identical", async () => {
    const text = "\tconst a = 1;   \n\n\tconst b = 2;";
    const editor = await open(text, 0, 2);
    suite.server.queue({ text: "```ts\nconst a = 10;\n\nconst b = 20;\n```" });
    await edit("bigger numbers");
    assert.equal(session()?.state, "reviewing");
    assert.notEqual(review().getText(), text);
    await vscode.commands.executeCommand("wisp.edit.reject");
    assert.equal(editor.document.getText(), text);
    assert.deepEqual(suite.api.edit.sessions(), []);
  });

  it("Reject on a file with no unsaved changes leaves it clean, without writing it", async () => {
    const editor = await open(sample, 2, 8);
    const written = statSync(editor.document.uri.fsPath).mtimeMs;
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    assert.equal(session()?.state, "reviewing");
    assert.equal(review().isDirty, true, "the proposal is an unsaved change of the review copy");
    assert.equal(editor.document.isDirty, false, "the file itself has no change");
    await vscode.commands.executeCommand("wisp.edit.reject");
    await assertSavedAsBefore(editor.document, written);
  });

  it("Escape while streaming on a file with no unsaved changes leaves it clean, without writing it", async () => {
    const editor = await open(sample, 2, 8);
    const written = statSync(editor.document.uri.fsPath).mtimeMs;
    const long = longAnswer(200);
    suite.server.queue({ text: fenced(long), tokensPerSecond: 40 });
    const running = edit("spell out the steps");
    await suite.streaming();
    assert.equal(editor.document.isDirty, false);
    // Escape is bound to this command while an edit streams.
    await vscode.commands.executeCommand("wisp.edit.reject");
    await running;
    await assertSavedAsBefore(editor.document, written);
  });

  it("Reject on a file that had unsaved changes keeps exactly those changes, unsaved", async () => {
    const editor = await open(sample, 2, 8);
    await editor.edit((e) => e.insert(new vscode.Position(0, 0), "// unsaved before the edit\n"));
    const before = editor.document.getText();
    assert.equal(editor.document.isDirty, true);
    editor.selection = new vscode.Selection(3, 0, 9, 1);
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    assert.equal(session()?.state, "reviewing");
    await vscode.commands.executeCommand("wisp.edit.reject");
    assert.deepEqual(suite.api.edit.sessions(), []);
    assert.equal(editor.document.getText(), before);
    assert.equal(editor.document.isDirty, true, "the user's own changes stay unsaved");
    assert.equal(readFileSync(editor.document.uri.fsPath, "utf8"), sample);
  });

  it("Reject after typing elsewhere in a clean file during the review keeps the typing, unsaved", async () => {
    const editor = await open(sample, 2, 8);
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    assert.equal(session()?.state, "reviewing");
    // Typed where the proposal is shown, below it: the file gets the typing, not the proposal.
    await active().edit((e) => e.insert(new vscode.Position(active().document.lineCount - 1, 0), "// typed during the review\n"));
    await waitFor("the typing in the file", () => editor.document.getText(), (text) => text === `${sample}// typed during the review\n`);
    await vscode.commands.executeCommand("wisp.edit.reject");
    assert.deepEqual(suite.api.edit.sessions(), []);
    assert.equal(editor.document.getText(), `${sample}// typed during the review\n`);
    assert.equal(editor.document.isDirty, true, "the typing stays as an unsaved change");
    assert.equal(readFileSync(editor.document.uri.fsPath, "utf8"), sample);
  });

  it("accepting one of two hunks from its CodeLens applies exactly that hunk", async () => {
    const editor = await open(sample, 2, 8);
    const answer = [...renamed.slice(0, 0), "function total(values: number[]): number {", "  let result = 0; // running sum", "  for (const v of values) {", "    result += v;", "  }", "  return result * 2;", "}"];
    suite.server.queue({ text: fenced(answer) });
    await edit("comment and double");
    const { id, hunks } = session()!;
    assert.equal(hunks, 2);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>("vscode.executeCodeLensProvider", review().uri);
    const titles = lenses.map((lens) => `${lens.range.start.line}:${lens.command?.title}`);
    assert.deepEqual(titles.filter((t) => /:(Accept|Reject)$/.test(t)), ["3:Accept", "3:Reject", "8:Accept", "8:Reject"]);
    assert.ok(titles.includes("2:$(check) Accept All (Ctrl+Enter)") && titles.includes("2:$(diff) Open Diff"), titles.join(", "));
    const acceptFirst = lenses.find((lens) => lens.range.start.line === 3 && lens.command?.title === "Accept")!.command!;
    await vscode.commands.executeCommand(acceptFirst.command, ...(acceptFirst.arguments ?? []));
    assert.equal(session()?.hunks, 2);
    await vscode.commands.executeCommand("wisp.edit.rejectHunk", id, 1);
    assert.equal(editor.document.getText(), sample.replace("  let result = 0;", "  let result = 0; // running sum"));
    await vscode.commands.executeCommand("undo");
    assert.equal(editor.document.getText(), sample);
  });

  it("Stop mid-stream puts the original back and closes the request", async () => {
    const editor = await open(sample, 2, 8);
    const long = longAnswer(200);
    suite.server.queue({ text: fenced(long), tokensPerSecond: 40 });
    const aborted = suite.server.aborted;
    const running = edit("spell out the steps");
    await suite.streaming();
    assert.equal(session()?.state, "streaming");
    await vscode.commands.executeCommand("wisp.edit.reject");
    await running;
    assert.equal(editor.document.getText(), sample);
    assert.deepEqual(suite.api.edit.sessions(), []);
    await waitFor("the server to see the request closed", () => suite.server.aborted, (n) => n === aborted + 1);
  });

  it("keeps a CRLF file CRLF, and re-indents an answer written at column 0", async () => {
    const crlf = sample.replace(/\n/g, "\r\n");
    const editor = await open(crlf, 3, 7);
    assert.equal(editor.document.eol, vscode.EndOfLine.CRLF);
    suite.server.queue({ text: fenced(["let sum = 0;", "for (const v of values) {", "  sum += v;", "}", "return sum;"]) });
    await edit("rename result to sum");
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), replaceLines(crlf, 2, 8, renamed, "\r\n"));
    await vscode.commands.executeCommand("undo");
    assert.equal(editor.document.getText(), crlf);

    suite.server.queue({ text: fenced(["let sum = 0;"]) });
    active().selection = new vscode.Selection(3, 0, 3, 5);
    await edit("rename");
    await vscode.commands.executeCommand("wisp.edit.reject");
    assert.equal(editor.document.getText(), crlf);
  });

  it("the user can type above the block while it streams; the edit follows its lines", async () => {
    const editor = await open(sample, 2, 8);
    suite.server.queue({ text: fenced(renamed), tokensPerSecond: 30 });
    const running = edit("rename result to sum");
    await waitFor("streaming", () => session()?.state, (state) => state === "streaming");
    await typeWhileStreaming(new vscode.Position(0, 0), "// typed while it streams\n");
    await running;
    assert.equal(session()?.startLine, 3);
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), `// typed while it streams\n${replaceLines(sample, 2, 8, renamed)}`);
  });

  /**
   * Edit Selection from the real instruction input, on `selection`, taking the recent instruction
   * "rename result to sum" (an edit of it is made and rejected first); `meanwhile` runs while the input is open.
   */
  async function editFromInput(selection: vscode.Selection, meanwhile?: () => Promise<void>): Promise<void> {
    suite.server.queue({ text: fenced(renamed) }, { text: fenced(renamed) });
    await edit("rename result to sum");
    await vscode.commands.executeCommand("wisp.edit.reject");
    active().selection = selection;
    const before = suite.server.chatRequests.length;
    // "rename result to sum" is now the most recent instruction: the input lists it first.
    const running = vscode.commands.executeCommand("wisp.editSelection");
    await meanwhile?.();
    await waitFor("the instruction input to take the listed instruction", async () => {
      await vscode.commands.executeCommand("workbench.action.acceptSelectedQuickOpenItem");
      return suite.server.chatRequests.length;
    }, (n) => n > before);
    await running;
  }

  /** Runs Edit Selection with the model list loading (held at the server) and types `line` at `at` in the file meanwhile. */
  async function typeWhileStarting(editor: vscode.TextEditor, at: vscode.Position, line: string): Promise<void> {
    // Any Wisp setting changed lists the models again at the next edit: held, the edit waits there.
    await vscode.workspace.getConfiguration("wisp.chat").update("temperature", 0.3, vscode.ConfigurationTarget.Global);
    const models = suite.server.holdModels();
    try {
      const running = edit("rename result to sum");
      await models.arrived;
      assert.ok(await editor.edit((e) => e.insert(at, `${line}\n`)), "the typing taken");
      models.release();
      await running;
    } finally {
      models.release();
      await vscode.workspace.getConfiguration("wisp.chat").update("temperature", undefined, vscode.ConfigurationTarget.Global);
    }
  }

  it("typing above the selection while the edit starts (the model list still loading): the model gets, and the review edits, the lines selected", async () => {
    const editor = await open(sample, 2, 8);
    suite.server.queue({ text: fenced(renamed) });
    await typeWhileStarting(editor, new vscode.Position(0, 0), "// typed while it starts");
    assert.match(lastRequest().messages.at(-1)!.content, /The block, lines 3-9:\n```typescript\nfunction total/);
    assert.equal(session()?.startLine, 3);
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), `// typed while it starts\n${replaceLines(sample, 2, 8, renamed)}`);
  });

  it("typing inside the selection while the edit starts: it does not start, says why, asks the model nothing and leaves the typing", async () => {
    const editor = await open(sample, 2, 8);
    const before = suite.server.chatRequests.length;
    await typeWhileStarting(editor, new vscode.Position(3, 0), "  // typed while it starts");
    assert.match(suite.api.edit.lastError() ?? "", /changed while the edit was starting/);
    assert.equal(suite.server.chatRequests.length, before, "the model was not asked");
    assert.deepEqual(suite.api.edit.sessions(), []);
    assert.equal(editor.document.getText(), replaceLines(sample, 3, 2, ["  // typed while it starts"]));
  });

  it("the file changed on disk while the instruction is asked (a checkout, a formatter): the edit takes the selection where it is now", async () => {
    const editor = await open(sample, 2, 8);
    await editFromInput(new vscode.Selection(2, 0, 8, 1), () => writeFileSeen(editor.document.uri.fsPath, `// added on disk\n${sample}`));
    assert.match(lastRequest().messages.at(-1)!.content, /The block, lines 4-10:\n```typescript\nfunction total/);
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), `// added on disk\n${replaceLines(sample, 2, 8, renamed)}`);
  });

  it("typing inside the lines being edited stops the edit and puts the original back", async () => {
    const editor = await open(sample, 2, 8);
    const long = longAnswer(100);
    suite.server.queue({ text: fenced(long), tokensPerSecond: 40 });
    const running = edit("spell out the steps");
    await waitFor("new lines streaming in", () => session()?.kinds ?? [], (kinds) => kinds.includes("added"));
    await typeWhileStreaming(new vscode.Position(3, 0), "x");
    await running;
    await waitFor("the edit stopped", () => suite.api.edit.sessions().length, (n) => n === 0);
    assert.equal(editor.document.getText(), sample);
  });

  it("edits in two files at once each keep their own session", async () => {
    const first = await open(sample, 2, 8);
    const second = await open(sample, 2, 8);
    await vscode.window.showTextDocument(first.document, vscode.ViewColumn.One);
    const right = await vscode.window.showTextDocument(second.document, vscode.ViewColumn.Two);
    right.selection = new vscode.Selection(2, 0, 8, 1);
    // Slow enough that the first is still streaming once the second has opened its review copy.
    suite.server.queue({ text: fenced(renamed), tokensPerSecond: 10 }, { text: fenced(renamed), tokensPerSecond: 10 });
    const leftEditor = await vscode.window.showTextDocument(first.document, vscode.ViewColumn.One);
    leftEditor.selection = new vscode.Selection(2, 0, 8, 1);
    const runningLeft = edit("rename result to sum");
    await waitFor("the first edit streaming", () => suite.api.edit.sessions().length, (n) => n === 1);
    await vscode.window.showTextDocument(second.document, vscode.ViewColumn.Two);
    const runningRight = edit("rename it too");
    await waitFor("both edits streaming at once", () => suite.api.edit.sessions().map((s) => s.state), (states) => states.length === 2 && states.every((s) => s === "streaming"));
    await Promise.all([runningLeft, runningRight]);
    const [a, b] = suite.api.edit.sessions();
    assert.deepEqual([a?.state, b?.state, a?.uri, b?.uri], ["reviewing", "reviewing", first.document.uri.toString(), second.document.uri.toString()]);
    await vscode.commands.executeCommand("wisp.edit.accept", a!.id);
    await vscode.commands.executeCommand("wisp.edit.reject", b!.id);
    assert.equal(first.document.getText(), replaceLines(sample, 2, 8, renamed));
    assert.equal(second.document.getText(), sample);
  });

  it("two edits of one file started back to back: one opens, the other is refused before it asks the model", async () => {
    const editor = await open(sample, 2, 8);
    // One answer: the refused edit asks nothing, and an answer left queued would go to the next case.
    suite.server.queue({ text: fenced(renamed) });
    const asked = suite.server.chatRequests.length;
    const refused = () => suite.api.logLines().filter((line) => line.includes("wisp.editSelection: An edit is already open in this file")).length;
    const refusedBefore = refused();
    // Both start before either has read the key: the second must not pass the "one edit per file" check.
    await Promise.all([edit("rename result to sum"), edit("rename result to sum")]);
    assert.equal(refused(), refusedBefore + 1, "the second edit says the file already has one");
    assert.deepEqual(suite.api.edit.sessions().map((s) => [s.uri, s.state]), [[editor.document.uri.toString(), "reviewing"]]);
    assert.equal(suite.server.chatRequests.length, asked + 1, "one request only");
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), replaceLines(sample, 2, 8, renamed));
  });

  it("offers Fix with Wisp on a diagnostic, and its edit carries the problem and applies", async () => {
    const editor = await open(sample, 0, 0);
    const diagnostics = vscode.languages.createDiagnosticCollection("edit-test");
    try {
      diagnostics.set(editor.document.uri, [new vscode.Diagnostic(new vscode.Range(7, 2, 7, 15), "Type 'string' is not assignable to type 'number'.", vscode.DiagnosticSeverity.Error)]);
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>("vscode.executeCodeActionProvider", editor.document.uri, new vscode.Range(7, 3, 7, 3));
      const fix = actions.find((a) => a.title === "Fix with Wisp");
      assert.ok(fix?.command, `actions offered: ${actions.map((a) => a.title).join(", ")}`);
      assert.equal(fix.kind?.value, "quickfix");
      suite.server.queue({ text: fenced(["  return Number(result);"]) });
      await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
      const user = lastRequest().messages.at(-1)!.content;
      assert.match(user, /Instruction: Fix this problem: Type 'string' is not assignable to type 'number'\./);
      assert.match(user, /- line 8 \(error\): Type 'string' is not assignable/);
      await vscode.commands.executeCommand("wisp.edit.accept");
      assert.equal(editor.document.getText(), sample.replace("  return result;", "  return Number(result);"));
    } finally {
      diagnostics.dispose();
    }
  });

  it("chat Apply opens the code as a reviewed diff on the block it matches", async () => {
    const editor = await open(sample, 0, 0);
    editor.selection = new vscode.Selection(0, 0, 0, 0);
    const message = await vscode.commands.executeCommand<string>("wisp.chat.applyCode", renamed.join("\n"), "ts");
    assert.equal(message, "Opened the change to lines 3-9 for review: accept or reject it in the editor.");
    assert.equal(session()?.startLine, 2);
    assert.equal(session()?.state, "reviewing");
    assert.deepEqual(session()?.kinds.filter((k) => k !== "same"), ["removed", "added", "removed", "added", "removed", "added"], "the proposal is shown in place");
    await vscode.commands.executeCommand("wisp.edit.showDiff");
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(tab instanceof vscode.TabInputTextDiff, "the diff editor is open");
    const [left, right] = await Promise.all([vscode.workspace.openTextDocument(tab.original), vscode.workspace.openTextDocument(tab.modified)]);
    assert.equal(left.getText(), sample);
    assert.equal(right.getText(), replaceLines(sample, 2, 8, renamed));
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), replaceLines(sample, 2, 8, renamed));
  });

  it("Open Diff shows what is left to decide after each hunk's Accept or Reject, and closes when nothing is", async () => {
    const editor = await open(sample, 2, 8);
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    const { id, hunks } = session()!;
    assert.equal(hunks, 3);
    await vscode.commands.executeCommand("wisp.edit.showDiff", id);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    assert.ok(tab instanceof vscode.TabInputTextDiff, "the diff editor is open");
    const [left, right] = await Promise.all([vscode.workspace.openTextDocument(tab.original), vscode.workspace.openTextDocument(tab.modified)]);
    const sides = () => [left.getText(), right.getText()];
    assert.deepEqual(sides(), [sample, replaceLines(sample, 2, 8, renamed)]);
    // Decided while the diff editor hides the proposal: the accepted hunk is on both sides, no longer a difference.
    await vscode.commands.executeCommand("wisp.edit.acceptHunk", id, 0);
    const firstAccepted = sample.replace("  let result = 0;", "  let sum = 0;");
    await waitFor("the accepted hunk on both sides", sides, ([l, r]) => l === firstAccepted && r === replaceLines(sample, 2, 8, renamed));
    // Then with the proposal beside it: the rejected hunk leaves the proposed side.
    await vscode.window.showTextDocument(review(), vscode.ViewColumn.Beside);
    await vscode.commands.executeCommand("wisp.edit.rejectHunk", id, 1);
    const lastLeft = firstAccepted.replace("  return result;", "  return sum;");
    await waitFor("only the last hunk left as a difference", sides, ([l, r]) => l === firstAccepted && r === lastLeft);
    await vscode.commands.executeCommand("wisp.edit.acceptHunk", id, 2);
    const diffs = () => vscode.window.tabGroups.all.flatMap((group) => group.tabs).filter((t) => t.input instanceof vscode.TabInputTextDiff);
    await waitFor("the diff editor closed", () => diffs().length, (n) => n === 0);
    assert.equal(editor.document.getText(), lastLeft);
  });

  it("chat Apply puts the code block in exactly, re-indented: a sentence-like first line and a ``` line inside a string stay", async () => {
    const python = ["def total(prices):", '    """', "    Total price.", "", "    Usage:", "    ```", "    total(prices)", "    ```", '    """', "    return sum(prices)", ""].join("\n");
    // The block as chat shows it, written at column 0: every line of it is code here.
    const block = ["Total price, tax included.", "", "Usage:", "```", "total([1.5, 2.25])", "```"];
    const editor = await open(python, 2, 7, "py");
    const message = await vscode.commands.executeCommand<string>("wisp.chat.applyCode", `${block.join("\n")}\n`, "python");
    assert.equal(message, "Opened the change to lines 3-8 for review: accept or reject it in the editor.");
    assert.equal(session()?.state, "reviewing");
    await vscode.commands.executeCommand("wisp.edit.accept");
    const applied = replaceLines(python, 2, 7, block.map((line) => (line === "" ? "" : `    ${line}`)));
    assert.equal(editor.document.getText(), applied);

    // Without a fence, lines that open and close like a model's prose are the code too.
    const prose = ["    This function adds the prices.", "    Note: the prices are in cents."];
    active().selection = new vscode.Selection(2, 0, 2, 10);
    await vscode.commands.executeCommand("wisp.chat.applyCode", prose.join("\n"), "python");
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), replaceLines(applied, 2, 2, prose));
  });

  it("chat Apply in a file indented with tabs: a block indented with two spaces goes in with a tab for each of its levels", async () => {
    const tabbed = ["export class Cart {", "\ttotal(values: number[]): number {", "\t\tlet result = 0;", "\t\tfor (const v of values) {", "\t\t\tresult += v;", "\t\t}", "\t\treturn result;", "\t}", "}", ""].join("\n");
    const editor = await open(tabbed, 1, 7);
    assert.equal(editor.options.insertSpaces, false, "the editor indents this file with tabs");
    const block = ["total(values: number[]): number {", "  let sum = 0;", "  for (const v of values) {", "    sum += v;", "  }", "  return sum;", "}"];
    await vscode.commands.executeCommand("wisp.chat.applyCode", `${block.join("\n")}\n`, "ts");
    assert.equal(session()?.state, "reviewing");
    await vscode.commands.executeCommand("wisp.edit.accept");
    const tabs = ["\ttotal(values: number[]): number {", "\t\tlet sum = 0;", "\t\tfor (const v of values) {", "\t\t\tsum += v;", "\t\t}", "\t\treturn sum;", "\t}"];
    assert.equal(editor.document.getText(), replaceLines(tabbed, 1, 7, tabs));
  });

  it("a read-only file (files.readonlyInclude): Edit Selection and chat Apply ask nothing of the model, say the file is read-only, and leave it as it was", async () => {
    await vscode.workspace.getConfiguration("files").update("readonlyInclude", { "**/*.locked.ts": true }, vscode.ConfigurationTarget.Global);
    try {
      const editor = await open(sample, 2, 8, "locked.ts");
      const before = suite.server.chatRequests.length;
      const refused = () => suite.api.logLines().filter((line) => line.includes("is read-only (files.readonlyInclude")).length;
      await edit("rename result to sum");
      await vscode.commands.executeCommand("wisp.chat.applyCode", `${renamed.join("\n")}\n`, "ts");
      assert.equal(refused(), 2, "both refused, saying why");
      assert.equal(suite.server.chatRequests.length, before, "nothing asked of the model");
      assert.deepEqual(suite.api.edit.sessions(), []);
      assert.equal(editor.document.getText(), sample);
    } finally {
      await vscode.workspace.getConfiguration("files").update("readonlyInclude", undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it("a view no one can write (a diff's git: side, an Output channel, another extension's document): Edit Selection, from the chat's pencil, asks nothing of the model and says so", async () => {
    // Such documents come from a content provider: VS Code shows them read-only, they have no file to write.
    const scheme = "wisp-test-view";
    const provider = vscode.workspace.registerTextDocumentContentProvider(scheme, { provideTextDocumentContent: () => sample });
    try {
      const document = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme, path: "/HEAD/edit-view.ts" }));
      const editor = await vscode.window.showTextDocument(document);
      editor.selection = new vscode.Selection(2, 0, 8, 1);
      const before = suite.server.chatRequests.length;
      const refused = () => suite.api.logLines().filter((line) => line.includes("wisp.editSelection") && line.includes("cannot be edited")).length;
      suite.server.queue({ text: fenced(renamed) });
      await edit("rename result to sum");
      assert.equal(suite.server.chatRequests.length, before, "nothing asked of the model");
      assert.deepEqual(suite.api.edit.sessions(), [], "no review opened");
      assert.equal(refused(), 1, "refused, saying why");
      assert.equal(document.getText(), sample);
    } finally {
      suite.server.clearQueue();
      provider.dispose();
    }
  });

  it("an untitled file: Edit Selection and chat Apply open their review in it, and Accept puts the lines in it", async () => {
    const document = await vscode.workspace.openTextDocument({ content: sample, language: "typescript" });
    const editor = await vscode.window.showTextDocument(document);
    try {
      editor.selection = new vscode.Selection(2, 0, 8, 1);
      suite.server.queue({ text: fenced(renamed) });
      await edit("rename result to sum");
      assert.equal(suite.api.edit.lastError(), undefined);
      assert.equal(session()?.state, "reviewing");
      await vscode.commands.executeCommand("wisp.edit.accept");
      const accepted = replaceLines(sample, 2, 8, renamed);
      assert.equal(document.getText(), accepted);

      active().selection = new vscode.Selection(0, 0, 0, 17);
      await vscode.commands.executeCommand("wisp.chat.applyCode", "const header = 10;\n", "ts");
      assert.equal(session()?.state, "reviewing");
      await vscode.commands.executeCommand("wisp.edit.accept");
      assert.equal(document.getText(), accepted.replace("const header = 1;", "const header = 10;"));
      assert.ok(document.isUntitled, "still untitled");
    } finally {
      suite.server.clearQueue();
      await vscode.window.showTextDocument(document);
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
  });

  it("a notebook cell: Edit Selection opens its review, and Accept puts the lines in the cell and shows the notebook again", async () => {
    const python = ["def total(values):", "    result = 0", "    for v in values:", "        result += v", "    return result"];
    const notebook = await vscode.workspace.openNotebookDocument("jupyter-notebook", new vscode.NotebookData([new vscode.NotebookCellData(vscode.NotebookCellKind.Code, python.join("\n"), "python")]));
    await vscode.window.showNotebookDocument(notebook);
    const cell = notebook.cellAt(0).document;
    try {
      const editor = await vscode.window.showTextDocument(cell);
      editor.selection = new vscode.Selection(0, 0, 4, 17);
      const renamedPy = ["def total(values):", "    s = 0", "    for v in values:", "        s += v", "    return s"];
      suite.server.queue({ text: fenced(renamedPy, "python") });
      await edit("rename result to s");
      assert.equal(suite.api.edit.lastError(), undefined);
      assert.equal(session()?.state, "reviewing");
      assert.equal(review().languageId, "python", "the review tab reads the cell's language");
      await vscode.commands.executeCommand("wisp.edit.accept");
      assert.equal(cell.getText(), renamedPy.join("\n"));
      assert.equal(vscode.window.activeNotebookEditor?.notebook, notebook, "the notebook is shown again");
      const reviewTabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.scheme === "wisp-review");
      assert.deepEqual(reviewTabs.map((t) => t.label), [], "no review tab left");
    } finally {
      suite.server.clearQueue();
      await vscode.window.showNotebookDocument(notebook);
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    }
  });

  it("user settings: chat Insert at an indented empty line of a file indented with tabs: the block's lines follow the cursor's indentation, a tab for each of its levels", async () => {
    const tabbed = ["export class Cart {", "\ttotal(values: number[]): number {", "\t\tlet result = 0;", "\t\t", "\t\treturn result;", "\t}", "}", ""].join("\n");
    const editor = await open(tabbed, 0, 0);
    assert.equal(editor.options.insertSpaces, false, "the editor indents this file with tabs");
    editor.selection = new vscode.Selection(3, 2, 3, 2);
    const block = ["for (const v of values) {", "  result += v;", "}"].join("\n");
    await suite.api.chat.fromView({ type: "codeAction", action: "insert", code: block, language: "ts" });
    const inserted = ["\t\tfor (const v of values) {", "\t\t\tresult += v;", "\t\t}"];
    assert.equal(editor.document.getText(), replaceLines(tabbed, 3, 3, inserted));
  });

  it("a notebook's cell after a file: chat Apply naming the notebook, Insert and Apply go into the cell (not its JSON, not the file used before), and Edit Selection names the notebook", async () => {
    const file = await open(sample, 0, 0);
    const python = ["def total(values):", "    result = 0", "    for v in values:", "        result += v", "    return result"];
    const path = join(process.env.WISP_TEST_WORKSPACE!, "edit-cells.ipynb");
    writeNotebook(path, [python.join("\n")]);
    const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(path));
    try {
      await vscode.window.showNotebookDocument(notebook);
      const cell = notebook.cellAt(0).document;
      await vscode.window.showTextDocument(cell);
      // An answer's block naming the notebook: Apply goes into the cell, never into the notebook's JSON.
      const doubled = python.map((line) => line.replace("result += v", "result += 2 * v"));
      await suite.api.chat.fromView({ type: "codeAction", action: "apply", code: `${doubled.join("\n")}\n`, language: "python", path: "edit-cells.ipynb" });
      assert.equal(session()?.state, "reviewing");
      await vscode.commands.executeCommand("wisp.edit.accept");
      assert.equal(cell.getText(), doubled.join("\n"));
      assert.deepEqual(vscode.workspace.textDocuments.filter((d) => d.uri.path.endsWith(".ipynb") && d.uri.scheme === "file").map((d) => d.uri.path), [], "the notebook's JSON is not opened");

      (await vscode.window.showTextDocument(cell)).selection = new vscode.Selection(0, 0, 0, 0);
      await suite.api.chat.fromView({ type: "codeAction", action: "insert", code: "import math\n", language: "python" });
      assert.equal(cell.getText(), ["import math", ...doubled].join("\n"));
      assert.equal(file.document.getText(), sample, "the file used before is left alone");
      assert.equal(vscode.window.activeNotebookEditor?.notebook, notebook, "the notebook stays in view");

      (await vscode.window.showTextDocument(cell)).selection = new vscode.Selection(1, 0, 5, 17);
      const renamedPy = ["def total(values):", "    s = 0", "    for v in values:", "        s += v", "    return s"];
      await vscode.commands.executeCommand("wisp.chat.applyCode", `${renamedPy.join("\n")}\n`, "python");
      assert.equal(session()?.state, "reviewing");
      await vscode.commands.executeCommand("wisp.edit.accept");
      assert.equal(cell.getText(), ["import math", ...renamedPy].join("\n"));
      assert.equal(file.document.getText(), sample);

      (await vscode.window.showTextDocument(cell)).selection = new vscode.Selection(1, 0, 1, 18);
      suite.server.queue({ text: fenced(["def total(items):"], "python") });
      await edit("rename values to items");
      assert.equal(suite.api.edit.lastError(), undefined);
      const prompt = JSON.stringify(lastRequest().messages);
      assert.ok(prompt.includes("edit-cells.ipynb"), prompt);
      assert.ok(!prompt.includes(process.env.WISP_TEST_WORKSPACE!), `the notebook by its workspace path, not the absolute one: ${prompt}`);
    } finally {
      suite.server.clearQueue();
      for (const s of suite.api.edit.sessions()) await vscode.commands.executeCommand("wisp.edit.reject", s.id);
      await vscode.window.showNotebookDocument(notebook);
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
      rmSync(path, { force: true });
    }
  });

  it("a notebook opened read-only (files.readonlyInclude): Edit Selection and chat Apply in its cell ask nothing of the model, say the notebook is read-only, and leave the cell as it was", async () => {
    const python = ["def total(values):", "    result = 0", "    for v in values:", "        result += v", "    return result"];
    const path = join(process.env.WISP_TEST_WORKSPACE!, "cells.locked.ipynb");
    writeNotebook(path, [python.join("\n")]);
    await vscode.workspace.getConfiguration("files").update("readonlyInclude", { "**/*.locked.ipynb": true }, vscode.ConfigurationTarget.Global);
    const notebook = await vscode.workspace.openNotebookDocument(vscode.Uri.file(path));
    try {
      await vscode.window.showNotebookDocument(notebook);
      const cell = notebook.cellAt(0).document;
      (await vscode.window.showTextDocument(cell)).selection = new vscode.Selection(1, 0, 4, 17);
      const before = suite.server.chatRequests.length;
      const refused = () => suite.api.logLines().filter((line) => line.includes("cells.locked.ipynb is read-only (files.readonlyInclude")).length;
      suite.server.queue({ text: fenced(["    s = 0"], "python") });
      await edit("rename result to s");
      await vscode.commands.executeCommand("wisp.chat.applyCode", `${python.map((l) => l.replace("result", "s")).join("\n")}\n`, "python");
      await waitFor("both refusals", refused, (n) => n === 2);
      assert.equal(suite.server.chatRequests.length, before, "nothing asked of the model");
      assert.deepEqual(suite.api.edit.sessions(), [], "no review opened");
      assert.equal(cell.getText(), python.join("\n"));
    } finally {
      suite.server.clearQueue();
      for (const s of suite.api.edit.sessions()) await vscode.commands.executeCommand("wisp.edit.reject", s.id);
      await vscode.workspace.getConfiguration("files").update("readonlyInclude", undefined, vscode.ConfigurationTarget.Global);
      await vscode.window.showNotebookDocument(notebook);
      await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
      rmSync(path, { force: true });
    }
  });

  it("a file over 50 MB (VS Code gives extensions no editor for it): Edit Selection says the file is too large for extensions, not 'Open a file'", async () => {
    const path = join(process.env.WISP_TEST_WORKSPACE!, "huge-edit.log");
    writeFileSync(path, "a line of a very large log file, as a build or a data dump writes it\n".repeat(800_000));
    try {
      await vscode.commands.executeCommand("vscode.open", vscode.Uri.file(path));
      await waitFor("the large file's tab", () => vscode.window.tabGroups.activeTabGroup.activeTab?.label, (label) => label === "huge-edit.log");
      assert.equal(vscode.window.activeTextEditor, undefined, "VS Code gives extensions no editor for it");
      const said = () => suite.api.logLines().filter((line) => line.includes("huge-edit.log is 53 MB: VS Code does not hand files over 50 MB to extensions")).length;
      await edit("rename result to sum");
      await waitFor("the reason said", said, (n) => n === 1);
    } finally {
      await vscode.commands.executeCommand("workbench.action.closeActiveEditor");
      rmSync(path, { force: true });
    }
  });

  it("a file split into two groups: Edit Selection in the second opens its review there, on the lines selected there", async () => {
    const left = await open(sample, 0, 0);
    await vscode.commands.executeCommand("workbench.action.splitEditorRight");
    await waitFor("the split editor", () => active(), (e) => e.viewColumn === vscode.ViewColumn.Two && e.document === left.document);
    active().selection = new vscode.Selection(2, 0, 8, 1);
    suite.server.queue({ text: fenced(renamed) });
    await edit("rename result to sum");
    assert.equal(session()?.state, "reviewing");
    assert.equal(active().document, review(), "the review is the active editor");
    assert.equal(active().viewColumn, vscode.ViewColumn.Two, "in the group the edit was asked in");
    assert.equal(active().selection.start.line, 2, "with the selection made there");
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(left.document.getText(), replaceLines(sample, 2, 8, renamed));
  });

  it("without a selection edits the function around the cursor, from the real instruction input with a recent instruction", async () => {
    const editor = await open(sample, 2, 8);
    await editFromInput(new vscode.Selection(5, 4, 5, 4));
    assert.match(lastRequest().messages.at(-1)!.content, /Instruction: rename result to sum$/m);
    assert.equal(session()?.startLine, 2);
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), replaceLines(sample, 2, 8, renamed));
  });

  it("an answer cut at max tokens mid-block proposes nothing and says so (the block's last lines are not proposed deleted); cut after its fence, the edit is proposed", async () => {
    const editor = await open(sample, 2, 8);
    suite.server.queue({ text: "```ts\n" + renamed.slice(0, 3).join("\n") + "\n", finishReason: "length" });
    await edit("rename result to sum");
    assert.match(suite.api.edit.lastError() ?? "", /cut off at the max tokens limit \(wisp\.chat\.maxTokens\).*nothing is proposed/);
    assert.deepEqual(suite.api.edit.sessions(), []);
    assert.equal(editor.document.getText(), sample);

    suite.server.queue({ text: "```ts\n" + renamed.join("\n") + "\n```\n\nThis renames the varia", finishReason: "length" });
    await edit("rename result to sum");
    assert.equal(session()?.state, "reviewing");
    await vscode.commands.executeCommand("wisp.edit.accept");
    assert.equal(editor.document.getText(), replaceLines(sample, 2, 8, renamed));
  });

  it("errors leave the document unchanged and say what to do: no key, unknown model, no code in the answer", async () => {
    const editor = await open(sample, 2, 8);
    suite.server.queue({ text: "I can't help with that.\n" });
    await edit("rename");
    assert.match(suite.api.edit.lastError() ?? "", /no code/);
    assert.equal(editor.document.getText(), sample);

    suite.server.queue({ error: { status: 404, message: "The model `gone` does not exist.", code: "model_not_found" } });
    await edit("rename");
    assert.match(suite.api.edit.lastError() ?? "", /gone/);
    assert.equal(editor.document.getText(), sample);

    await vscode.commands.executeCommand("wisp.clearApiKey");
    try {
      await edit("rename");
      assert.match(suite.api.edit.lastError() ?? "", /Set API Key/);
      assert.equal(editor.document.getText(), sample);
      assert.deepEqual(suite.api.edit.sessions(), []);
    } finally {
      await vscode.commands.executeCommand("wisp.setApiKey", suite.server.key);
    }
  });
});
