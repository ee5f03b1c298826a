/**
 * Checkpoints in the conversation: Restore Checkpoint on each request of an agent conversation
 * (confirmed in place, saying what goes back), and the Redo bar after a restore.
 */
import type { ChatTurn } from "../../core/chat/conversation";
import type { CheckpointsView, ViewMessage, ViewState } from "../../core/chat/protocol";
import { actionButton, el } from "./dom";

type Post = (message: ViewMessage) => void;

/** What restoring to before a request takes back: the requests from it on, the files their tasks changed. */
export interface RestoreInfo {
  readonly requests: number;
  readonly files: readonly string[];
}

/** Per restorable user turn, what its restore takes back (nothing while a task runs). */
export function restoreInfos(turns: readonly ChatTurn[], checkpoints: CheckpointsView | undefined, streaming: boolean): Map<string, RestoreInfo> {
  const infos = new Map<string, RestoreInfo>();
  if (!checkpoints || streaming) return infos;
  const restorable = new Set(checkpoints.requests);
  // From the end back: the files of the answers after each request, in the order they were changed.
  let later: string[] = [];
  let requests = 0;
  for (let i = turns.length - 1; i >= 0; i--) {
    const turn = turns[i]!;
    if (turn.role === "assistant") later = [...(turn.agent?.files ?? []).map((f) => f.path), ...later];
    else {
      requests++;
      if (restorable.has(turn.id)) infos.set(turn.id, { requests, files: [...new Set(later)] });
    }
  }
  return infos;
}

/** The Restore Checkpoint button of a request and its confirmation (Restore / Cancel, Escape cancels). */
export function restoreControl(turnId: string, info: RestoreInfo, post: Post): { button: HTMLElement; confirm: HTMLElement } {
  const later = info.requests - 1;
  const what = later === 0 ? "This request is removed from the chat" : `This request and the ${later === 1 ? "one" : later} after it are removed from the chat`;
  const files = info.files.length === 0 ? "; no file was changed since." : `, and ${info.files.length === 1 ? "this file goes" : "these files go"} back as before it: ${info.files.join(", ")}.`;
  const cancel = () => {
    confirm.hidden = true;
    button.focus();
  };
  const restore = actionButton("Restore", () => {
    // On the request until the restore removes it (the conversation then gives the focus on).
    button.focus();
    confirm.hidden = true;
    post({ type: "agentRestore", turnId });
  }, { className: "primary", title: "Restore the workspace to before this request" });
  const confirm = el(
    "div",
    { className: "checkpoint-confirm", role: "group", "aria-label": "Restore Checkpoint", hidden: true },
    el("p", {}, `Restore the workspace to before this request? ${what}${files} Redo brings them back until you send the next request.`),
    el("div", { className: "actions" }, restore, actionButton("Cancel", cancel)),
  );
  confirm.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.stopPropagation();
    cancel();
  });
  const button = actionButton("Restore Checkpoint", () => {
    confirm.hidden = false;
    restore.focus();
  }, { className: "link checkpoint-restore", title: "Put the files back as they were before this request, and remove it and the later ones" });
  return { button, confirm };
}

/** Under the conversation after a restore: what it removed, and Redo. */
export class RedoBar {
  readonly element = el("div", { className: "checkpoint-redo", role: "status", hidden: true });

  /** `focusLost`: the bar went while its Redo had the focus. */
  constructor(private readonly post: Post, private readonly focusLost: () => void) {}

  show(state: ViewState): void {
    const redo = state.streaming ? undefined : state.checkpoints?.redo;
    this.element.hidden = redo === undefined;
    if (redo === undefined) {
      const hadFocus = this.element.contains(document.activeElement);
      delete this.element.dataset.text;
      this.element.replaceChildren();
      if (hadFocus) this.focusLost();
      return;
    }
    const text = `Checkpoint restored: ${count(redo.requests, "request")} removed, ${count(redo.files, "file")} put back.`;
    if (this.element.dataset.text === text) return;
    this.element.dataset.text = text;
    this.element.replaceChildren(
      el("span", {}, text),
      actionButton("Redo", () => this.post({ type: "agentRedo" }), { title: "Bring back the removed requests and their files" }),
    );
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
