import * as vscode from "vscode";
import type { ClientFactory } from "../client-factory";
import type { Logger } from "../logger";
import { registerWispCommand } from "../run-command";
import type { Settings } from "../settings";
import { EditCodeLens } from "./edit-codelens";
import { EditController, type EditProbe, type EditSource } from "./edit-controller";
import type { EditEnd, EditSession } from "./edit-session";
import { EditDiffView, editDiffScheme } from "./edit-diff-view";
import { FixWithWisp, fixInstruction, isFixRequest } from "./fix-code-action";
import { askInstruction, remember } from "./instruction-input";
import { targetOf, type EditTarget } from "./edit-target";
import { reviewScheme } from "./review-copies";
import type { ScopedInstructions } from "../../core/customization/scoped-instructions";
import { noEditorMessage } from "../no-editor-message";

export interface EditDeps {
  readonly settings: Settings;
  readonly clients: ClientFactory;
  readonly log: Logger;
  /** Where the recent instructions are kept. */
  readonly state: vscode.Memento;
  /** Scoped instructions (.github/instructions): those matching the edited file go with the request. */
  readonly instructions?: { instructions(): readonly ScopedInstructions[] };
}

/** Edit in place: its commands, CodeLens, diff view and Quick Fix. `apply` opens chat code as a reviewed edit. */
export function registerEdit(deps: EditDeps): {
  disposable: vscode.Disposable;
  probe: EditProbe;
  apply: (editor: vscode.TextEditor, target: EditTarget, code: string) => Promise<void>;
  /** Fires when an edit ended (accepted, rejected, ...), with its file. */
  ended: EditController["onDidEnd"];
} {
  const { log, state } = deps;
  const edits = new EditController(deps);
  const diffView = new EditDiffView(edits);
  const command = (id: string, run: (...args: unknown[]) => unknown) => registerWispCommand(id, run, log);
  const session = (id: unknown) => {
    const found = edits.find(id);
    if (found === undefined) throw new Error("There is no Wisp edit in this editor.");
    return found;
  };

  /** The session a command means (CodeLens pass its id; keys and buttons mean the active editor's), decided. */
  const decide = (id: unknown, how: (session: EditSession) => Promise<EditEnd | undefined>) => {
    const found = session(id);
    return edits.finish(found, how(found));
  };

  const disposable = vscode.Disposable.from(
    edits,
    diffView,
    vscode.languages.registerCodeLensProvider({ scheme: "*" }, new EditCodeLens(edits)),
    vscode.workspace.registerTextDocumentContentProvider(editDiffScheme, diffView),
    vscode.workspace.registerFileSystemProvider(reviewScheme, edits.copies, { isCaseSensitive: true }),
    vscode.languages.registerCodeActionsProvider({ scheme: "*" }, new FixWithWisp(), { providedCodeActionKinds: FixWithWisp.kinds }),
    // The instruction may come as an argument ({ instruction }) from a keybinding or another extension.
    command("wisp.editSelection", async (arg) => {
      const editor = vscode.window.activeTextEditor;
      if (editor === undefined) throw new Error(await noEditorMessage("Open a file and select the code to change."));
      const version = editor.document.version;
      let target = await targetOf(editor);
      const given = (arg as { instruction?: unknown } | undefined)?.instruction;
      const instruction = typeof given === "string" && given.trim() !== "" ? given : await askInstruction(state, target.note === undefined ? "Selection" : "Block");
      if (instruction === undefined) return;
      // Changed while the instruction was typed (reloaded from disk, another extension's edit): the selection moved with its lines.
      if (editor.document.version !== version) target = await targetOf(editor);
      if (typeof given === "string") await remember(state, given);
      if (target.note) void vscode.window.showInformationMessage(`Wisp: ${target.note}`);
      await edits.start(target, { instruction });
    }),
    command("wisp.fixThis", async (arg) => {
      if (!isFixRequest(arg)) throw new Error("Fix This runs from a problem's Quick Fix menu (Ctrl+.).");
      const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(arg.uri));
      await vscode.window.showTextDocument(document);
      await edits.start({ document, startLine: arg.startLine, endLine: arg.endLine }, { instruction: fixInstruction(arg.message) });
    }),
    command("wisp.edit.accept", (id) => decide(id, (s) => s.decideAll("accepted"))),
    command("wisp.edit.reject", (id) => decide(id, (s) => s.decideAll("rejected"))),
    command("wisp.edit.acceptHunk", (id, hunk) => decide(id, (s) => s.decide(Number(hunk), "accepted"))),
    command("wisp.edit.rejectHunk", (id, hunk) => decide(id, (s) => s.decide(Number(hunk), "rejected"))),
    command("wisp.edit.showDiff", (id) => diffView.open(session(id).id)),
  );

  const apply = async (editor: vscode.TextEditor, target: EditTarget, code: string) => {
    const source: EditSource = { code };
    await vscode.window.showTextDocument(editor.document, { viewColumn: editor.viewColumn, preserveFocus: false });
    await edits.start(target, source);
  };
  return { disposable, probe: edits.probe, apply, ended: edits.onDidEnd };
}
