import * as vscode from "vscode";
import type { ChatSessionEvents } from "../../core/chat/chat-session";
import type { ChatStore } from "../../core/chat/chat-store";
import type { Chat } from "../../core/chat/conversation";
import type { CheckpointsView } from "../../core/chat/protocol";
import type { Logger } from "../logger";
import { DocumentReloads } from "./document-reloads";
import { mayOverwrite } from "./overwrite-consent";
import type { PlannedFile, RequestCheckpointStore } from "./request-checkpoint-store";

export interface CheckpointActionsDeps {
  readonly store: ChatStore;
  readonly checkpoints: RequestCheckpointStore;
  readonly events: ChatSessionEvents;
  readonly isRunning: (chatId: string) => boolean;
  readonly log: Logger;
  readonly now: () => number;
  /** Files a restore or a Redo rewrote (the editor's highlights of the task follow). */
  readonly rewrote: (paths: readonly string[], how: "restored" | "redone") => void;
}

/**
 * Restore Checkpoint and Redo in an agent conversation. The view confirms a restore before it
 * asks; here a file that changed since Wisp last wrote it (by hand, by a command, unsaved in an
 * editor) is named in a warning before it is overwritten, and nothing happens without a yes.
 */
export class CheckpointActions {
  constructor(private readonly deps: CheckpointActionsDeps) {}

  view(chat: Chat): CheckpointsView | undefined {
    const checkpoints = this.deps.checkpoints.get(chat.id);
    const asked = new Set(chat.turns.filter((t) => t.role === "user").map((t) => t.id));
    const requests = checkpoints.requests.map((r) => r.requestId).filter((id) => asked.has(id));
    const top = checkpoints.redo.at(-1);
    const redo = top && top.anchor === (chat.turns.at(-1)?.id ?? "") ? { requests: top.requests.length, files: top.files.length } : undefined;
    if (requests.length === 0 && !redo) return undefined;
    return { requests, ...(redo ? { redo } : {}) };
  }

  /** Restores the workspace to before the request (a user turn of the active chat); the notice to show. */
  async restore(requestId: string): Promise<string> {
    const { store, checkpoints } = this.deps;
    const chat = store.active();
    const root = this.rootOf(chat.id);
    const index = chat.turns.findIndex((t) => t.id === requestId && t.role === "user");
    if (this.deps.isRunning(chat.id)) return "Stop the task before restoring a checkpoint.";
    const plan = root && index >= 0 ? await checkpoints.planRestore(chat.id, requestId, root) : undefined;
    if (!root || !plan) return "This request has no checkpoint to restore.";
    if (!(await mayOverwrite(root, plan.files, "Restore"))) return "Nothing was restored.";
    const reloads = this.reloadsOf(root, plan.files);
    const paths = await checkpoints.restore(chat.id, requestId, root, chat.turns.slice(index), chat.turns[index - 1]?.id ?? "");
    await this.reloaded(reloads);
    if (!paths) return "This request has no checkpoint to restore.";
    store.put({ ...chat, turns: chat.turns.slice(0, index), updatedAt: this.deps.now() });
    this.deps.rewrote(paths, "restored");
    this.deps.events.changed(chat.id);
    const removed = chat.turns.length - index;
    this.deps.log.info(`agent: restored a checkpoint: ${paths.length} file(s), ${removed} turn(s) removed`);
    return `Checkpoint restored: ${count(paths.length, "file")} as before that request, ${count(plan.requests, "request")} removed. Redo brings them back until you send the next request.`;
  }

  /** Undoes the latest restore of the active chat: its files and turns come back. */
  async redo(): Promise<string> {
    const { store, checkpoints } = this.deps;
    const chat = store.active();
    const root = this.rootOf(chat.id);
    if (this.deps.isRunning(chat.id)) return "Stop the task before Redo.";
    const last = chat.turns.at(-1)?.id ?? "";
    const plan = root ? await checkpoints.planRedo(chat.id, root, last) : undefined;
    if (!root || !plan) return "There is nothing to redo: the conversation went on since the checkpoint was restored.";
    if (!(await mayOverwrite(root, plan.files, "Redo"))) return "Nothing was redone.";
    const reloads = this.reloadsOf(root, plan.files);
    const redone = await checkpoints.redo(chat.id, root, last);
    await this.reloaded(reloads);
    if (!redone) return "There is nothing to redo.";
    store.put({ ...chat, turns: [...chat.turns, ...redone.turns], updatedAt: this.deps.now() });
    this.deps.rewrote(redone.paths, "redone");
    this.deps.events.changed(chat.id);
    this.deps.log.info(`agent: redid ${redone.paths.length} file(s), ${redone.turns.length} turn(s) back`);
    return `Redone: ${count(plan.record.requests.length, "request")} and ${count(redone.paths.length, "file")} back.`;
  }

  /** The open editors of files about to be rewritten, whose reload the action waits for before it reports done. */
  private reloadsOf(root: string, files: readonly PlannedFile[]): DocumentReloads {
    return new DocumentReloads(files.map((f) => vscode.Uri.joinPath(vscode.Uri.file(root), f.path)));
  }

  private async reloaded(reloads: DocumentReloads): Promise<void> {
    if (!(await reloads.reloaded())) this.deps.log.info("agent: an editor had not shown a rewritten file's new text after 5 s");
  }

  /** The folder the chat's checkpoints name files in (the first folder, for those kept before the folder was). */
  private rootOf(chatId: string): string | undefined {
    return this.deps.checkpoints.rootOf(chatId) ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? "" : "s"}`;
}
