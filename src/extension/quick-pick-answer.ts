import * as vscode from "vscode";

/** What the user did with one step of a quick pick that stays open across steps. */
export type PickAnswer<T> = { readonly kind: "item"; readonly item: T } | { readonly kind: "back" } | { readonly kind: "closed" };

/**
 * The next answer from `pick`: an accepted item (Enter on an empty list is no answer), the Back
 * button, or closed. The pick stays open for the next step; the caller disposes it.
 */
export function nextAnswer<T extends vscode.QuickPickItem>(pick: vscode.QuickPick<T>): Promise<PickAnswer<T>> {
  return new Promise((resolve) => {
    const subscriptions: vscode.Disposable[] = [];
    const answer = (value: PickAnswer<T>) => {
      for (const s of subscriptions) s.dispose();
      resolve(value);
    };
    subscriptions.push(
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0] ?? pick.activeItems[0];
        if (item !== undefined) answer({ kind: "item", item });
      }),
      pick.onDidTriggerButton((button) => {
        if (button === vscode.QuickInputButtons.Back) answer({ kind: "back" });
      }),
      pick.onDidHide(() => answer({ kind: "closed" })),
    );
  });
}

/** Shows `pick` busy and empty until `work` settles; "closed" if the user closes it first. */
export async function busyUntil<T, I extends vscode.QuickPickItem>(pick: vscode.QuickPick<I>, placeholder: string, work: Promise<T>): Promise<T | "closed"> {
  pick.items = [];
  pick.value = "";
  pick.placeholder = placeholder;
  pick.busy = true;
  let hidden: vscode.Disposable | undefined;
  const closed = new Promise<"closed">((resolve) => (hidden = pick.onDidHide(() => resolve("closed"))));
  try {
    return await Promise.race([work, closed]);
  } finally {
    hidden?.dispose();
    pick.busy = false;
  }
}
