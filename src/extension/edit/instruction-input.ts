import * as vscode from "vscode";
import { readRecentInstructions, rememberInstruction } from "../../core/edit/recent-instructions";

const recentKey = "wisp.edit.recentInstructions";

/**
 * Asks what to change, offering the recent instructions: typing gives a new one, picking a listed
 * one reuses it. Undefined when the user dismisses the input.
 */
export async function askInstruction(state: vscode.Memento, what: string): Promise<string | undefined> {
  const recent = readRecentInstructions(state.get(recentKey));
  const pick = vscode.window.createQuickPick();
  pick.title = `Wisp: Edit ${what}`;
  pick.placeholder = recent.length > 0 ? "What should change? Type an instruction, or pick a recent one" : "What should change? e.g. add error handling";
  const listed = recent.map((label) => ({ label }));
  pick.items = listed;
  // What is typed is the first item, so Enter takes it; the recent ones stay below to pick instead.
  pick.onDidChangeValue((value) => {
    const typed = value.trim();
    pick.items = typed === "" || recent.includes(typed) ? listed : [{ label: typed, description: "new instruction", alwaysShow: true }, ...listed];
  });
  const chosen = await new Promise<string | undefined>((resolve) => {
    pick.onDidAccept(() => {
      resolve(pick.selectedItems[0]?.label ?? pick.activeItems[0]?.label);
      pick.hide();
    });
    pick.onDidHide(() => resolve(undefined));
    pick.show();
  });
  pick.dispose();
  if (chosen === undefined || chosen.trim() === "") return undefined;
  await remember(state, chosen);
  return chosen;
}

export async function remember(state: vscode.Memento, instruction: string): Promise<void> {
  await state.update(recentKey, rememberInstruction(readRecentInstructions(state.get(recentKey)), instruction));
}
