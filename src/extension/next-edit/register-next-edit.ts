import * as vscode from "vscode";
import { updateSetting, type Settings } from "../settings";
import { ModelPredictor, type ModelPredictorDeps } from "./model-predictor";
import { NextEditController, type NextEditProbe } from "./next-edit-controller";
import { NextEditDecorations } from "./next-edit-decorations";

/**
 * Next-edit suggestions from the local predictor, and from `wisp.nextEdit.model` when set: the controller, its ghost text at the cursor,
 * its Tab and Escape commands (bound in package.json while `wisp.nextEditShown`), the on/off
 * toggle of the status menu, and a read-only probe for tests.
 */
export function registerNextEdit(
  settings: Settings,
  model: Omit<ModelPredictorDeps, "model">,
): { disposable: vscode.Disposable; probe: NextEditProbe } {
  const decorations = new NextEditDecorations();
  const predictor = new ModelPredictor({ ...model, model: () => settings.value.nextEdit.model });
  const controller = new NextEditController(settings.value.nextEdit.enabled, decorations, predictor);
  const disposable = vscode.Disposable.from(
    decorations,
    controller,
    // Beside Wisp's completion provider: this one answers only while a suggestion sits at the cursor.
    vscode.languages.registerInlineCompletionItemProvider({ pattern: "**" }, {
      provideInlineCompletionItems: (document, position) => {
        const ghost = controller.ghostText(document, position);
        return ghost ? [new vscode.InlineCompletionItem(ghost.text, ghost.range)] : [];
      },
    }),
    vscode.commands.registerCommand("wisp.nextEdit.tab", () => controller.tab()),
    vscode.commands.registerCommand("wisp.nextEdit.dismiss", () => controller.dismiss()),
    vscode.commands.registerCommand("wisp.toggleNextEdit", async () => {
      const enabled = !settings.value.nextEdit.enabled;
      await updateSetting("nextEdit.enabled", enabled);
      return enabled;
    }),
    settings.onDidChange((s) => controller.setEnabled(s.nextEdit.enabled)),
  );
  return { disposable, probe: { shown: () => controller.shown(), predictions: () => controller.predictions(), followed: () => controller.followed() } };
}
