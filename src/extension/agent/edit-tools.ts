import { mkdir, readFile as readBytes, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import * as vscode from "vscode";
import type { ToolOutcome } from "../../core/agent/agent-loop";
import { agentsFileFolders } from "../../core/agent/agent-prompt";
import type { StepReporter } from "../../core/agent/agent-session";
import { lineDelta } from "../../core/agent/checkpoint";
import { lineEndOf, lineEndOfSetting, newFileText, withLineEnds, type LineEnd } from "../../core/agent/line-ends";
import { replaceOnce } from "../../core/agent/replace-once";
import { protectedPathReason } from "../../core/agent/protected-paths";
import { readOnlyKind } from "../edit/read-only";
import { agentsFile } from "./agent-rules";
import { gitControlledReason } from "./git-controlled-files";
import { fileLabel, type AgentWorkspace, type WorkspaceFileRef, type WorkspaceText } from "./agent-workspace";
import type { Approvals } from "./approvals";
import type { CheckpointStore } from "./checkpoint-store";
import { encodedNotUtf8 } from "./file-encoding";
import { hashOf } from "./hashed-blobs";
import type { RequestRecorder } from "./request-checkpoint-store";

export interface EditToolDeps {
  readonly ws: AgentWorkspace;
  readonly checkpoint: CheckpointStore;
  /** The checkpoint of the request the task answers (Restore Checkpoint), when it has one. */
  readonly request?: RequestRecorder;
  readonly approvals: Approvals;
  readonly askBeforeEdits: boolean;
  /** Whether project rules go to the model (the nearest AGENTS.md of an edited file). */
  readonly rules: boolean;
  /** A file was written (its new lines are shown in the editor). */
  readonly edited: (path: string) => void;
}

const fail = (content: string): ToolOutcome => ({ content, isError: true });

/**
 * create_file and replace_string_in_file. Edits apply at once (the next command sees them) and
 * are saved; the first write to a file takes its original bytes into the task's checkpoint, so
 * Undo restores them exactly.
 */
export class EditTools {
  private readonly rulesShown = new Set<string>();

  constructor(private readonly deps: EditToolDeps) {}

  async createFile(args: { path: string; content: string }, step: StepReporter, signal: AbortSignal): Promise<ToolOutcome> {
    const file = await this.deps.ws.file(args.path);
    if ("error" in file) return fail(file.error);
    if (file.relative === "") return fail("Give the path of a file to create, not the workspace folder.");
    step.update({ title: `wrote ${file.relative}`, path: file.relative });
    const sensitive = await this.askIfSensitive(file, step, signal);
    if (typeof sensitive === "object") return sensitive.outcome;
    const before = await this.deps.ws.text(file.uri);
    if (before.kind === "binary" || before.kind === "too-large") return fail(`${file.relative} exists and is ${before.kind === "binary" ? "a binary file" : "too large"}; it was not replaced.`);
    step.update({ title: `${before.kind === "missing" ? "created" : "rewrote"} ${file.relative}`, path: file.relative });
    return this.write(file, before, (now) => {
      if (!sameText(now, before)) return fail(`${file.relative} changed while the edit waited for approval, so it was not rewritten: read it again.`);
      if (now.kind !== "text") return newFileText(args.content, this.newFileLineEnd(file));
      return withLineEnds(args.content, lineEndOf(now.text) ?? this.newFileLineEnd(file));
    }, step, signal, sensitive === "allowed");
  }

  async replaceString(args: { path: string; old_string: string; new_string: string }, step: StepReporter, signal: AbortSignal): Promise<ToolOutcome> {
    const file = await this.deps.ws.file(args.path);
    if ("error" in file) return fail(file.error);
    step.update({ title: `edited ${file.relative}`, path: file.relative });
    const sensitive = await this.askIfSensitive(file, step, signal);
    if (typeof sensitive === "object") return sensitive.outcome;
    const text = await this.deps.ws.text(file.uri);
    if (args.old_string === "" && text.kind === "text") return fail("old_string is empty: give the exact text to replace, with a few lines around it.");
    return this.write(file, text, (now) => {
      if (now.kind === "missing") return fail(`${file.relative} does not exist. Use create_file to make a new file.`);
      if (now.kind !== "text") return fail(`${file.relative} is ${now.kind === "binary" ? "a binary file" : "too large to edit"}.`);
      const replaced = replaceOnce(now.text, args.old_string, args.new_string, lineEndOf(now.text) ?? this.newFileLineEnd(file));
      if ("text" in replaced) return replaced.text;
      const since = sameText(now, text) ? "" : " It changed while the edit waited for approval.";
      return fail(
        replaced.matches === 0
          ? `old_string was not found in ${file.relative} (0 matches).${since} Read the file and copy the exact text, whitespace included.`
          : `old_string matches ${replaced.matches} places in ${file.relative}; exactly one is needed.${since} Include more of the surrounding lines so it is unique.`,
      );
    }, step, signal, sensitive === "allowed");
  }

  /**
   * A sensitive file's edit asks before the file is even read: what the tool answers (does
   * old_string match?) would otherwise tell its contents to the model guess by guess.
   */
  private async askIfSensitive(file: WorkspaceFileRef, step: StepReporter, signal: AbortSignal): Promise<"ordinary" | "allowed" | { readonly outcome: ToolOutcome }> {
    if (!this.deps.ws.isSensitiveFile(file)) return "ordinary";
    const refused = await this.ask(file, `${fileLabel(file)} matches wisp.sensitiveFiles or .wispignore and may hold secrets. Let the agent edit it?`, step, signal);
    return refused ? { outcome: refused } : "allowed";
  }

  /**
   * Applies `edit` to the file's text (`before`, as read). When the edit asks first, the file is
   * read again after the yes: the user may have changed it while the card waited (auto-save
   * writes such changes at once), and the edit applies to what it holds then, not over it.
   */
  private async write(
    file: WorkspaceFileRef,
    before: WorkspaceText,
    edit: (text: WorkspaceText) => string | ToolOutcome,
    step: StepReporter,
    signal: AbortSignal,
    asked: boolean,
  ): Promise<ToolOutcome> {
    // The user's word that VS Code must not change the file: an open editor refuses the edit, and
    // the disk is not written behind it.
    if ((await readOnlyKind(file.uri)) !== undefined) {
      return fail(`${file.relative} is read-only in the editor (files.readonlyInclude, or its permissions under files.readonlyFromPermissions), so it was not changed. Tell the user what to change there instead.`);
    }
    if (textOf(before) !== "" && (await notUtf8OnDisk(file))) {
      return fail(`${file.relative} is not UTF-8 text (another encoding, such as Latin-1): written back as UTF-8, its other non-ASCII characters would be damaged, so it was not changed. An open file is edited through the editor, in its encoding: ask the user to open it.`);
    }
    let from = before;
    let after = edit(from);
    if (typeof after !== "string") return after;
    let { added, removed } = lineDelta(textOf(from), after);
    step.update({ added, removed });
    // Through a link, the file written is its target: that is what may be git's or the editor's.
    const protectedWhy = protectedPathReason(file.relative) ?? protectedPathReason(file.target) ?? (await gitControlledReason(this.deps.ws.root, file.target));
    if (!asked && (this.deps.askBeforeEdits || protectedWhy)) {
      const question = `Apply this edit to ${file.relative} (+${added} −${removed})?`;
      // A file that always asks: Allow in this session holds for this exact text, as it does for a
      // command; for the path alone, any later edit of the editor's settings or git's config would go unasked.
      const key = protectedWhy ? `edit:${file.relative}:${hashOf(new TextEncoder().encode(after))}` : `edit:${file.relative}`;
      const refused = await this.ask(file, protectedWhy ? `${fileLabel(file)} ${protectedWhy}. ${question}` : question, step, signal, key);
      if (refused) return refused;
      const now = await this.deps.ws.text(file.uri);
      if (!sameText(now, from)) {
        from = now;
        after = edit(from);
        if (typeof after !== "string") return after;
        ({ added, removed } = lineDelta(textOf(from), after));
        step.update({ added, removed });
      }
    }
    const created = from.kind === "missing";
    await this.remember(file);
    await applyText(file, after);
    await this.deps.request?.wrote(file.relative);
    step.changed(file.relative, added, removed, created);
    this.deps.edited(file.relative);
    step.update({ status: "done" });
    const rules = await this.rulesFor(file.relative);
    return { content: `${created ? "Created" : "Edited"} ${file.relative} (+${added} −${removed}).${rules}` };
  }

  /** The line end files.eol gives a new file at this path. */
  private newFileLineEnd(file: WorkspaceFileRef): LineEnd {
    return lineEndOfSetting(vscode.workspace.getConfiguration("files", file.uri).get("eol"), process.platform);
  }

  /** Shows the approval card; the outcome the model gets when the user says no (undefined: go on). */
  private async ask(file: WorkspaceFileRef, note: string, step: StepReporter, signal: AbortSignal, key = `edit:${file.relative}`): Promise<ToolOutcome | undefined> {
    const answer = await this.deps.approvals.ask(step, key, { note }, signal);
    if (answer === "deny" || answer === "stopped") {
      step.update({ status: answer === "stopped" ? "stopped" : "denied" });
      return fail(answer === "stopped" ? "Not applied: the user stopped the task." : `The user denied the edit of ${file.relative}.`);
    }
    step.update({ status: "running" });
    return undefined;
  }

  /** The file's bytes before the task's (and the request's) first write to it. */
  private async remember(file: WorkspaceFileRef): Promise<void> {
    const task = !this.deps.checkpoint.has(file.relative);
    const request = this.deps.request !== undefined && !this.deps.request.has(file.relative);
    if (!task && !request) return;
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.uri.toString());
    // Unsaved changes of the user's are saved first: they are the state the task starts from.
    if (open?.isDirty) await open.save();
    const read = await readBytes(file.absolute).catch(() => undefined);
    const bytes = read === undefined ? undefined : new Uint8Array(read);
    if (task) await this.deps.checkpoint.remember(file.relative, bytes === undefined ? { existed: false } : { existed: true, bytes });
    if (request) await this.deps.request!.remember(file.relative, bytes);
  }

  /** The nearest AGENTS.md below the root above an edited file, once per task. */
  private async rulesFor(path: string): Promise<string> {
    if (!this.deps.rules) return "";
    for (const folder of agentsFileFolders(path)) {
      const name = await agentsFile(this.deps.ws.uri(folder));
      if (name === undefined) continue;
      const agents = `${folder}/${name}`;
      // A link to a sensitive file (AGENTS.md -> .env) is no set of rules to send unasked.
      if (this.deps.ws.isSensitivePath(agents)) continue;
      const rules = await this.deps.ws.text(this.deps.ws.uri(agents));
      if (rules.kind !== "text") continue;
      if (this.rulesShown.has(agents)) return "";
      this.rulesShown.add(agents);
      return `\n\nRules for this folder, from ${agents}:\n${rules.text.trim()}`;
    }
    return "";
  }
}

function textOf(file: WorkspaceText): string {
  return file.kind === "text" ? file.text : "";
}

function sameText(a: WorkspaceText, b: WorkspaceText): boolean {
  return a.kind === b.kind && textOf(a) === textOf(b);
}

/** A file not open in an editor whose bytes are not UTF-8: the tools read it as UTF-8, so a write would replace its other characters. */
async function notUtf8OnDisk(file: WorkspaceFileRef): Promise<boolean> {
  if (encodedNotUtf8(file.uri) || vscode.workspace.textDocuments.some((d) => d.uri.toString() === file.uri.toString())) return false;
  const bytes = await readBytes(file.absolute).catch(() => undefined);
  if (bytes === undefined) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/**
 * Writes the text: through the open document (the editor keeps its undo history) and saved, or to
 * disk. A file files.encoding gives another encoding is opened (a new one made empty first) so that
 * the editor saves it in that encoding.
 */
async function applyText(file: WorkspaceFileRef, text: string): Promise<void> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === file.uri.toString()) ?? (encodedNotUtf8(file.uri) ? await openToEncode(file) : undefined);
  if (open) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(open.uri, new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)), text);
    if ((await vscode.workspace.applyEdit(edit)) && (await open.save())) return;
  }
  await mkdir(dirname(file.absolute), { recursive: true });
  // The text was read without its byte order mark (as the editor shows it): a file that had one keeps it.
  const head = await readBytes(file.absolute).then((b) => b.subarray(0, 3), () => undefined);
  const bom = head?.length === 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf;
  await writeFile(file.absolute, bom ? `\ufeff${text}` : text);
}

async function openToEncode(file: WorkspaceFileRef): Promise<vscode.TextDocument | undefined> {
  await mkdir(dirname(file.absolute), { recursive: true });
  await writeFile(file.absolute, "", { flag: "a" });
  return vscode.workspace.openTextDocument(file.uri).then(
    (d) => d,
    () => undefined,
  );
}
