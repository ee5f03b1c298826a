import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { WispApi } from "../../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../../harness/scripted-chat-server";
import { waitFor } from "../../harness/wait-for";
import { activateWisp, resetWisp, setBaseUrl } from "./wisp-extension";

export const sample = [
  "const header = 1;",
  "",
  "function total(values: number[]): number {",
  "  let result = 0;",
  "  for (const v of values) {",
  "    result += v;",
  "  }",
  "  return result;",
  "}",
  "",
  "export const footer = 2;",
  "",
].join("\n");

export const renamed = ["function total(values: number[]): number {", "  let sum = 0;", "  for (const v of values) {", "    sum += v;", "  }", "  return sum;", "}"];

/** An answer that streams for a while at a few tokens a second: `steps` lines in place of the function's body. */
export const longAnswer = (steps: number) => ["function total(values: number[]): number {", ...Array.from({ length: steps }, (_, i) => `  const step${i} = values.length + ${i};`), "}"];

export const fenced = (lines: readonly string[], language = "ts") => `Here is the updated code:\n\n\`\`\`${language}\n${lines.join("\n")}\n\`\`\`\n\nIt renames the variable.`;

export const replaceLines = (text: string, from: number, to: number, lines: readonly string[], eol = "\n") => {
  const all = text.split(eol);
  all.splice(from, to - from + 1, ...lines);
  return all.join(eol);
};

/** What the edit tests share: the extension, a scripted chat server, files in the workspace. */
export interface EditSuite {
  readonly api: WispApi;
  readonly server: ScriptedChatServer;
  /** Writes `content` to a new file and opens it with lines `from`-`to` (0-based, inclusive) selected. */
  open(content: string | Buffer, from: number, to: number, extension?: string): Promise<vscode.TextEditor>;
  /** The first edit under way. */
  session(): ReturnType<WispApi["edit"]["sessions"]>[number] | undefined;
  /** Runs Edit Selection with `instruction` on the active editor. */
  edit(instruction: string): Thenable<unknown>;
  /** The document the first edit shows its proposal in (its review copy). */
  review(): vscode.TextDocument;
  /** Resolves once the first edit shows new lines with original ones still to come. */
  streaming(): Promise<unknown>;
}

/**
 * Registers the hooks of an edit suite (call it inside `describe`; its files are named after
 * `prefix`): Wisp pointed at a scripted
 * chat server with completions off and auto-save off unless a test turns it on, every edit rejected
 * and every editor closed after each test, the files removed at the end.
 */
export function useEditSuite(prefix: string): EditSuite {
  const workspace = process.env.WISP_TEST_WORKSPACE ?? "";
  const files: string[] = [];
  const state: { api?: WispApi; server?: ScriptedChatServer } = {};

  before(async () => {
    state.api = await activateWisp();
    state.server = await startScriptedChatServer({ key: "sk-edit-test", models: [{ id: "scripted-chat", context_length: 8192 }] });
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
    // In the browser auto save defaults to on: the tests that are about it turn it on themselves.
    await vscode.workspace.getConfiguration("files").update("autoSave", "off", vscode.ConfigurationTarget.Global);
    await setBaseUrl(state.server.baseUrl);
    await vscode.commands.executeCommand("wisp.setApiKey", state.server.key);
  });
  afterEach(async () => {
    for (const session of suite.api.edit.sessions()) await vscode.commands.executeCommand("wisp.edit.reject", session.id);
    await vscode.workspace.getConfiguration("files").update("autoSave", "off", vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("workbench.action.revertAndCloseActiveEditor");
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });
  after(async () => {
    await vscode.workspace.getConfiguration("wisp.completion").update("enabled", undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.getConfiguration("files").update("autoSave", undefined, vscode.ConfigurationTarget.Global);
    for (const file of files) rmSync(file, { force: true });
    await resetWisp();
    await state.server?.close();
  });

  const suite: EditSuite = {
    get api() {
      if (state.api === undefined) throw new Error("the edit suite has not started");
      return state.api;
    },
    get server() {
      if (state.server === undefined) throw new Error("the edit suite has not started");
      return state.server;
    },
    async open(content, from, to, extension = "ts") {
      const file = join(workspace, `${prefix}-${files.length + 1}.${extension}`);
      files.push(file);
      writeFileSync(file, content);
      const editor = await vscode.window.showTextDocument(vscode.Uri.file(file));
      editor.selection = new vscode.Selection(from, 0, to, editor.document.lineAt(to).text.length);
      return editor;
    },
    session: () => suite.api.edit.sessions()[0],
    edit: (instruction) => vscode.commands.executeCommand("wisp.editSelection", { instruction }),
    streaming: () => waitFor("new lines streaming in", () => suite.session()?.kinds ?? [], (kinds) => kinds.includes("added") && kinds.includes("pending")),
    review() {
      const uri = suite.session()?.review;
      const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
      if (document === undefined) throw new Error(`no review copy open for the edit (${uri})`);
      return document;
    },
  };
  return suite;
}
