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
  pick.placeholder = recent.length > 0 ? "Describe the image, or pick a recent prompt" : "Describe the image";
  pick.ignoreFocusOut = true;
  pick.matchOnDescription = false;
  const update = () => {
    const typed = pick.value.replace(/\s+/g, " ").trim();
    const typedRow: PromptItem[] = typed === "" ? [] : [{ label: typed, prompt: typed, description: "new prompt", alwaysShow: true }];
    const recentRows = recent.filter((old) => old !== typed).map((old): PromptItem => ({ label: old, prompt: old, description: "recent" }));
    pick.items = [...typedRow, ...recentRows];
    pick.prompt = undefined;
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
        pick.prompt = "Describe the image first (or press Escape to cancel).";
        return;
      }
      finish(prompt);
    });
    pick.onDidHide(() => finish(undefined));
    pick.show();
  });
}
