import * as vscode from "vscode";
import type { ChatSession } from "../../core/chat/chat-session";
import type { CodeAttachment } from "../../core/chat/conversation";
import { relevantSnippets } from "../../core/context/relevant-snippets";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import { WorkspaceIgnoreRules } from "./ignore-rules";
import { MentionSources } from "./mention-sources";
import { SensitiveConsent, serverName } from "./sensitive-consent";
import type { SensitiveFileRules } from "./sensitive-file-rules";
import { WorkspaceIndex, defaultIndexOptions, type WorkspaceIndexOptions } from "./workspace-index";

/** Lines around the cursor that steer the search for a question asked from an editor. */
const cursorLines = 15;

const languages: Record<string, string> = {
  ts: "typescript", tsx: "typescriptreact", js: "javascript", jsx: "javascriptreact", mjs: "javascript", cjs: "javascript",
  py: "python", go: "go", rs: "rust", java: "java", kt: "kotlin", c: "c", h: "c", cpp: "cpp", cc: "cpp", hpp: "cpp",
  cs: "csharp", rb: "ruby", php: "php", swift: "swift", sh: "shellscript", md: "markdown", json: "json", yaml: "yaml", yml: "yaml",
};

function languageOf(path: string): string {
  return languages[path.slice(path.lastIndexOf(".") + 1).toLowerCase()] ?? "plaintext";
}

const key = (a: Pick<CodeAttachment, "path" | "startLine">) => `${a.path}:${a.startLine}`;

/**
 * The workspace side of the chat: the index, @-mentions, and the snippets Wisp adds to a question
 * that attaches nothing. Off (no index, no snippets) when wisp.chat.workspaceContext is false.
 */
export class ChatContext implements vscode.Disposable {
  readonly index: WorkspaceIndex;
  readonly mentions: MentionSources;
  /** Asks before a sensitive file the user names goes with a question. */
  readonly consent: SensitiveConsent;
  /** wisp.sensitiveFiles and .wispignore (agent mode's reads use them too). */
  readonly sensitive: SensitiveFileRules;
  /** The folders' .gitignore rules, kept until one changes (agent tasks use them too). */
  readonly gitignores: WorkspaceIgnoreRules;
  /** Found snippets the user removed from the message being written: not offered again for it. */
  private removedKeys = new Set<string>();
  private readonly disposables: vscode.Disposable[] = [];
  private enabled: boolean;

  constructor(
    settings: Settings,
    log: Logger,
    private readonly newId: () => string,
    rules: SensitiveFileRules,
    options: WorkspaceIndexOptions = defaultIndexOptions,
    /** @terminal's attachment. */
    terminal?: (newId: () => string) => Promise<CodeAttachment>,
  ) {
    this.sensitive = rules;
    this.consent = new SensitiveConsent(rules, () => serverName(settings.value.baseUrl));
    this.gitignores = new WorkspaceIgnoreRules(log);
    this.index = new WorkspaceIndex(log, rules, this.gitignores, options);
    this.mentions = new MentionSources(this.index, newId, this.consent, terminal);
    this.enabled = settings.value.chat.workspaceContext;
    this.disposables.push(
      this.gitignores,
      this.index,
      settings.onDidChange((s) => {
        if (s.chat.workspaceContext === this.enabled) return;
        this.enabled = s.chat.workspaceContext;
        if (this.enabled) void this.index.rebuild();
        else this.index.clear();
      }),
    );
    if (this.enabled) void this.index.rebuild();
  }

  /**
   * Brings the found snippets of the active chat's next message up to date with its draft: the
   * best few for the question, unless the user attached something themselves.
   */
  refreshFound(session: ChatSession, draft: string): void {
    const pending = session.pending();
    const own = pending.filter((a) => a.source !== "found");
    const found = this.enabled && own.length === 0 ? this.find(draft) : [];
    const current = pending.filter((a) => a.source === "found");
    if (found.map(key).join("|") === current.map(key).join("|")) return;
    const kept = new Map(current.map((a) => [key(a), a]));
    session.setFound(found.map((a) => kept.get(key(a)) ?? a));
  }

  /** The user took a found snippet off the message: keep it off while they write this message. */
  removed(attachment: CodeAttachment): void {
    if (attachment.source === "found") this.removedKeys.add(key(attachment));
  }

  /** The message went: the next one starts afresh. */
  sent(): void {
    this.removedKeys = new Set();
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }

  private find(question: string): CodeAttachment[] {
    const editor = vscode.window.activeTextEditor;
    const activePath = editor ? this.index.relativePath(editor.document.uri) : undefined;
    const line = editor?.selection.active.line ?? 0;
    const activeText = editor?.document.getText(new vscode.Range(Math.max(0, line - cursorLines), 0, line + cursorLines, 0));
    return relevantSnippets(this.index.index, question, { ...(activePath ? { activePath } : {}), ...(activeText ? { activeText } : {}) })
      .filter((hit) => !this.removedKeys.has(key(hit.chunk)))
      .map(({ chunk }) => ({ id: this.newId(), path: chunk.path, language: languageOf(chunk.path), startLine: chunk.startLine, endLine: chunk.endLine, text: chunk.text, source: "found" }));
  }
}
