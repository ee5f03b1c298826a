import * as assert from "node:assert/strict";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../src/extension/extension";
import type { ScriptedChatServer } from "../harness/scripted-chat-server";
import { waitFor } from "../harness/wait-for";
import { agentTaskView, closeAgentSuite, openAgentSuite, toolResults } from "./support/agent-task";
import { resetFolder } from "./support/write-file-seen";

const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
const dir = "agent-save-settings";
const cart = `${dir}/cart.js`;
const cartSource = "exports.total = (items) =>\n  items.reduce((sum, item) => sum + item.price, 0);\n";
/** The settings these cases change, put back after each. */
const changed = ["files.autoSave", "files.autoSaveDelay", "files.eol", "files.encoding", "[bat]", "wisp.agent.approveEdits"];

describe("Agent mode under settings users change: auto-save, approvals, line ends, encodings (real VS Code, scripted model)", function () {
  this.timeout(120_000);
  let api: WispApi;
  let server: ScriptedChatServer;
  const abs = (path: string) => join(workspace, path);
  const disk = (path: string) => (existsSync(abs(path)) ? readFileSync(abs(path), "utf8") : undefined);
  const { answer, approve, asking, ended } = agentTaskView(() => api);
  const set = async (key: string, value: unknown) => vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
  const edit = (path: string, old_string: string, new_string: string) => ({ toolCalls: [{ name: "replace_string_in_file", arguments: { path, old_string, new_string } }] });
  const create = (path: string, content: string) => ({ toolCalls: [{ name: "create_file", arguments: { path, content } }] });

  before(async () => {
    ({ api, server } = await openAgentSuite("sk-agent-save-settings"));
  });
  beforeEach(async () => {
    // Removed with its folder and made again, cart.js kept the last case's text in the document
    // VS Code holds when the watcher lost that pair of events.
    await resetFolder(abs(dir), { "cart.js": cartSource });
    await api.chat.fromView({ type: "newChat" });
  });
  afterEach(async () => {
    await api.chat.fromView({ type: "stop" });
    await vscode.commands.executeCommand("workbench.action.files.revert");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const key of changed) await set(key, undefined);
  });
  after(async () => {
    rmSync(abs(dir), { recursive: true, force: true });
    await closeAgentSuite({ api, server });
  });

  async function openCart(): Promise<vscode.TextEditor> {
    return vscode.window.showTextDocument(await vscode.workspace.openTextDocument(abs(cart)), { preview: false });
  }
  const typeAtEnd = async (editor: vscode.TextEditor, text: string) => {
    assert.ok(await editor.edit((e) => e.insert(editor.document.lineAt(editor.document.lineCount - 1).rangeIncludingLineBreak.end, text)), "the typing applied");
  };

  it("approveEdits ask, auto-save after 100 ms: a line typed (and auto-saved) while the card waits is kept, the edit applies beside it, and Undo gives back the file with that line", async () => {
    await set("files.autoSaveDelay", 100);
    await set("files.autoSave", "afterDelay");
    await set("wisp.agent.approveEdits", "ask");
    const editor = await openCart();
    server.queue(edit(cart, "item.price,", "item.price * item.qty,"), { text: "Done." });
    void api.chat.fromView({ type: "send", text: "Count the quantities" });
    await asking(0);
    await typeAtEnd(editor, "// checked by hand\n");
    const typed = `${cartSource}// checked by hand\n`;
    await waitFor("the typed line auto-saved", () => ({ dirty: editor.document.isDirty, disk: disk(cart) }), (s) => !s.dirty && s.disk === typed);

    await approve(0, "allow");
    await ended();
    const both = typed.replace("item.price,", "item.price * item.qty,");
    assert.equal(disk(cart), both, "the file has the user's line and the agent's edit");
    assert.equal(editor.document.getText(), both, "and the editor shows it");
    assert.deepEqual(answer()!.agent!.files.map((f) => [f.path, f.added, f.removed]), [[cart, 1, 1]]);

    await api.chat.fromView({ type: "agentReview", turnId: answer()!.id, action: "undo" });
    await waitFor("the editor back to the file before the agent's write", () => editor.document.getText(), (text) => text === typed);
    assert.equal(disk(cart), typed);
  });

  it("approveEdits ask: an old_string the user's change removed while the card waited is reported to the model, and the file keeps the user's text", async () => {
    await set("wisp.agent.approveEdits", "ask");
    const editor = await openCart();
    server.queue(edit(cart, "item.price,", "item.price * item.qty,"), { text: "Done." });
    void api.chat.fromView({ type: "send", text: "Count the quantities" });
    await asking(0);
    assert.ok(await editor.edit((e) => e.replace(new vscode.Range(0, 0, editor.document.lineCount, 0), "exports.total = () => 0;\n")), "the user's change applied");
    await approve(0, "allow");
    await ended();
    assert.equal(editor.document.getText(), "exports.total = () => 0;\n");
    assert.match(toolResults(server.chatRequests.at(-1)!)[0]!, /^Error: old_string was not found in agent-save-settings\/cart\.js \(0 matches\)\. It changed while the edit waited for approval\./);
    assert.deepEqual(answer()!.agent!.files, []);
  });

  it("files.autoSave onFocusChange: Undo while the user's typing in the file is unsaved asks first (refused, the typing stays); without it, the editor shows the file's bytes from before the task, and they stay", async () => {
    await set("files.autoSave", "onFocusChange");
    const editor = await openCart();
    server.queue(edit(cart, "item.price,", "item.price * item.qty,"), { text: "Done." });
    await api.chat.fromView({ type: "send", text: "Count the quantities" });
    await ended();
    await waitFor("the editor shows the agent's edit", () => editor.document.getText(), (text) => text.includes("item.qty"));
    const byTask = editor.document.getText();
    await typeAtEnd(editor, "// typed, not saved\n");
    assert.equal(editor.document.isDirty, true);

    await api.chat.fromView({ type: "agentReview", turnId: answer()!.id, action: "undo" });
    assert.equal(api.chat.state().notice?.text, "Nothing was undone.", "the test host refuses the warning, as No");
    assert.ok(editor.document.isDirty && editor.document.getText().endsWith("// typed, not saved\n"), "the typing is kept");
    await editor.edit((edit) => edit.replace(new vscode.Range(editor.document.positionAt(0), editor.document.positionAt(editor.document.getText().length)), byTask));
    assert.ok(await editor.document.save());

    await api.chat.fromView({ type: "agentReview", turnId: answer()!.id, action: "undo" });
    await waitFor("the editor shows the original, saved", () => ({ text: editor.document.getText(), dirty: editor.document.isDirty }), (s) => s.text === cartSource && !s.dirty);
    assert.equal(disk(cart), cartSource);
    // The focus leaves the editor (as the click on Undo takes it): nothing is saved back over the original.
    await vscode.commands.executeCommand("workbench.action.focusSideBar");
    await vscode.commands.executeCommand("workbench.action.focusActiveEditorGroup");
    assert.equal(disk(cart), cartSource);
    assert.equal(editor.document.getText(), cartSource);
  });

  it("CRLF files keep their line ends when the agent rewrites them (open or not), and under files.eol \"\\r\\n\" the files it creates get CRLF", async () => {
    await set("files.eol", "\r\n");
    const crlf = "a = 1\r\nb = 2\r\n";
    writeFileSync(abs(`${dir}/closed.txt`), crlf);
    writeFileSync(abs(`${dir}/edited.txt`), crlf);
    server.queue(
      create(`${dir}/closed.txt`, "a = 1\nb = 3\n"),
      create(`${dir}/new.txt`, "first\nsecond\n"),
      edit(`${dir}/edited.txt`, "b = 2", "b = 3\r\nc = 4"),
      { text: "Done." },
    );
    await api.chat.fromView({ type: "send", text: "Update the files" });
    await ended();
    assert.equal(disk(`${dir}/closed.txt`), "a = 1\r\nb = 3\r\n");
    assert.equal(disk(`${dir}/new.txt`), "first\r\nsecond\r\n");
    assert.equal(disk(`${dir}/edited.txt`), "a = 1\r\nb = 3\r\nc = 4\r\n");
  });

  it("user settings: under files.encoding windows1252, closed files are edited and created in it: an accented character the model writes is one byte, the file's own stay as they were", async () => {
    await set("files.encoding", "windows1252");
    const bytes = (path: string) => readFileSync(abs(path));
    writeFileSync(abs(`${dir}/menu.js`), "export const name = 'Cafe';\n");
    writeFileSync(abs(`${dir}/legacy.js`), Buffer.from("// Caf\xe9\nexport const x = 1;\n", "latin1"));
    server.queue(
      edit(`${dir}/menu.js`, "'Cafe'", "'Café'"),
      edit(`${dir}/legacy.js`, "x = 1", "x = 2"),
      create(`${dir}/notes.txt`, "résumé\n"),
      { text: "Done." },
    );
    const before = server.chatRequests.length;
    await api.chat.fromView({ type: "send", text: "Accent the names" });
    await ended();
    const results = server.chatRequests.slice(before + 1).map((r) => toolResults(r).at(-1));
    assert.deepEqual(results.map((r) => r?.split(" (")[0]), [`Edited ${dir}/menu.js`, `Edited ${dir}/legacy.js`, `Created ${dir}/notes.txt`]);
    assert.deepEqual(bytes(`${dir}/menu.js`), Buffer.from("export const name = 'Caf\xe9';\n", "latin1"));
    assert.deepEqual(bytes(`${dir}/legacy.js`), Buffer.from("// Caf\xe9\nexport const x = 2;\n", "latin1"));
    assert.deepEqual(bytes(`${dir}/notes.txt`), Buffer.from("r\xe9sum\xe9\n", "latin1"));
  });

  it("user settings: files.encoding cp437 for batch files only (\"[bat]\"): a closed .bat is edited in it, its own accents kept, and Open Diff reads it so", async () => {
    await set("[bat]", { "files.encoding": "cp437" });
    writeFileSync(abs(`${dir}/menu.bat`), "echo Cafe\r\n");
    // "rem Café ░" in cp437: é is 0x82, the shade 0xB0.
    writeFileSync(abs(`${dir}/legacy.bat`), Buffer.from([...Buffer.from("rem Caf"), 0x82, 0x20, 0xb0, ...Buffer.from("\r\nset x=1\r\n")]));
    server.queue(edit(`${dir}/menu.bat`, "Cafe", "Café"), edit(`${dir}/legacy.bat`, "x=1", "x=2"), { text: "Done." });
    const before = server.chatRequests.length;
    await api.chat.fromView({ type: "send", text: "Accent the batch files" });
    await ended();
    const results = server.chatRequests.slice(before + 1).map((r) => toolResults(r).at(-1));
    assert.deepEqual(results.map((r) => r?.split(" (")[0]), [`Edited ${dir}/menu.bat`, `Edited ${dir}/legacy.bat`]);
    assert.deepEqual(readFileSync(abs(`${dir}/menu.bat`)), Buffer.from([...Buffer.from("echo Caf"), 0x82, 0x0d, 0x0a]));
    assert.deepEqual(readFileSync(abs(`${dir}/legacy.bat`)), Buffer.from([...Buffer.from("rem Caf"), 0x82, 0x20, 0xb0, ...Buffer.from("\r\nset x=2\r\n")]));
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    await api.chat.fromView({ type: "agentDiff", path: `${dir}/legacy.bat` });
    const original = await waitFor("the diff's original side", () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === "wisp-agent-original" && d.uri.path === `/${dir}/legacy.bat`), (d) => d !== undefined);
    assert.equal(original!.getText(), "rem Café ░\r\nset x=1\r\n");
  });

  it("user settings: under files.encoding windows1252, Open Diff of an edited file shows the file before the task with its accents, as the editor reads it", async () => {
    await set("files.encoding", "windows1252");
    writeFileSync(abs(`${dir}/before-task.js`), Buffer.from("// Caf\xe9\nexport const x = 1;\n", "latin1"));
    const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(abs(`${dir}/before-task.js`)), { preview: false });
    assert.equal(editor.document.getText(), "// Café\nexport const x = 1;\n", "the editor reads the file in windows1252");
    server.queue(edit(`${dir}/before-task.js`, "x = 1", "x = 2"), { text: "Done." });
    await api.chat.fromView({ type: "send", text: "Set x to 2" });
    await ended();
    await api.chat.fromView({ type: "agentDiff", path: `${dir}/before-task.js` });
    const original = await waitFor("the diff's original side", () => vscode.workspace.textDocuments.find((d) => d.uri.scheme === "wisp-agent-original" && d.uri.path === `/${dir}/before-task.js`), (d) => d !== undefined);
    assert.equal(original!.getText(), "// Café\nexport const x = 1;\n");
  });
});
