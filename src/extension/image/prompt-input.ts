import * as vscode from "vscode";

interface PromptItem extends vscode.QuickPickItem {
  readonly prompt: string;
}

/**
 * Asks for the prompt: a quick pick whose first row is what is typed (prefilled from the editor)
 * and whose other rows are the recent prompts. Resolves undefined when dismissed.
 */
export function askPrompt(title: string, prefill: string | undefined, recent: readonly string[]): Promise<string | undefined> {
  const pick = vscode.window.createQuickPick<PromptItem>();
  pick.title = title;
  const placeholder = recent.length > 0 ? "Describe the image, or pick a recent prompt" : "Describe the image";
  pick.placeholder = placeholder;
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = false;
  const update = () => {
    const typed = pick.value.replace(/\s+/g, " ").trim();
    const typedRow: PromptItem[] = typed === "" ? [] : [{ label: typed, prompt: typed, description: "new prompt", alwaysShow: true }];
    const recentRows = recent.filter((old) => old !== typed).map((old): PromptItem => ({ label: old, prompt: old, description: "recent" }));
    pick.items = [...typedRow, ...recentRows];
    showHint(pick, undefined, placeholder);
  };
  pick.value = prefill ?? "";
  update();

  return new Promise((resolve) => {
    let done = false;
    const finish = (value: string | undefined) => {
      if (done) return;
      done = true;
      resolve(value);
      pick.dispose();
    };
    pick.onDidChangeValue(update);
    pick.onDidAccept(() => {
      const prompt = pick.selectedItems[0]?.prompt ?? pick.activeItems[0]?.prompt ?? pick.value.trim();
      if (prompt === "") {
        showHint(pick, "Describe the image first (or press Escape to cancel).", placeholder);
        return;
      }
      finish(prompt);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}

/**
 * A quick pick's prompt line (under its input) came in VS Code 1.108; before it, the hint takes the
 * placeholder's place, which shows just when it is needed: the input is empty.
 */
function showHint(pick: vscode.QuickPick<PromptItem>, hint: string | undefined, placeholder: string): void {
  if (Reflect.has(pick, "prompt")) Reflect.set(pick, "prompt", hint);
  else pick.placeholder = hint ?? placeholder;
}
