// The sample file the walkthrough's ghost-text and chat steps open: a copy in the extension's
// storage (written again each time, so a step always starts from the same text), nothing in the
// user's workspace.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";

export const sampleName = "wisp-sample-cart.ts";

const lines = [
  "// Wisp's sample file. Ghost text: pause at the end of a line; Tab accepts, Escape dismisses.",
  "// Ask about code: select some, then Ctrl+Alt+W (Ctrl+Cmd+W on macOS), or right-click > Wisp.",
  "",
  "export interface Item {",
  "  name: string;",
  "  price: number;",
  "  quantity: number;",
  "}",
  "",
  "/** What the items cost before tax. */",
  "export function subtotal(items: Item[]): number {",
  "  return items.reduce((sum, item) => sum + item.price * item.quantity, 0);",
  "}",
  "",
  "/** What the items cost with tax at `taxRate` (0.2 for 20%), rounded to cents. */",
  "export function cartTotal(items: Item[], taxRate: number): number {",
  "  const net = subtotal(items);",
  "  ",
  "}",
  "",
];

/** Where the cursor goes for ghost text: the empty line of cartTotal's body. */
const ghostLine = lines.indexOf("  ");
/** What the chat step asks about: subtotal and its comment. */
const askLines = { from: lines.indexOf("/** What the items cost before tax. */"), to: lines.indexOf("export function subtotal(items: Item[]): number {") + 2 };

async function openSample(storage: vscode.Uri): Promise<vscode.TextEditor> {
  const folder = join(storage.fsPath, "get-started");
  await mkdir(folder, { recursive: true });
  const file = join(folder, sampleName);
  await writeFile(file, lines.join("\n"));
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file));
  // A document already open keeps its text: put the sample's back.
  if (document.getText() !== lines.join("\n")) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(document.uri, new vscode.Range(0, 0, document.lineCount, 0), lines.join("\n"));
    await vscode.workspace.applyEdit(edit);
    await document.save();
  }
  return vscode.window.showTextDocument(document, { preview: false });
}

/** Opens the sample with the cursor where a suggestion makes sense, and asks for one. */
export async function tryGhostText(storage: vscode.Uri): Promise<void> {
  const editor = await openSample(storage);
  const at = new vscode.Position(ghostLine, lines[ghostLine]!.length);
  editor.selection = new vscode.Selection(at, at);
  await vscode.commands.executeCommand("editor.action.inlineSuggest.trigger");
}

/** Opens the sample, selects a function and asks the chat to explain it. */
export async function askChatAboutSample(storage: vscode.Uri): Promise<void> {
  const editor = await openSample(storage);
  editor.selection = new vscode.Selection(askLines.from, 0, askLines.to, 0);
  editor.revealRange(editor.selection);
  await vscode.commands.executeCommand("wisp.chat.explain");
}
