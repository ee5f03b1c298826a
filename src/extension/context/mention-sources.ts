import * as vscode from "vscode";
import type { CodeAttachment } from "../../core/chat/conversation";
import type { MentionItem } from "../../core/chat/protocol";
import { mentionKinds, rankCandidates, type MentionKind } from "../../core/context/mentions";
import { attachmentFromEditor, visibleRange } from "../chat/editor-attachment";
import { isUserDocument } from "../user-document";
import { problemsAttachment } from "./problems";
import { readTextFile } from "./text-files";
import type { WorkspaceIndex } from "./workspace-index";
import { gitChanges } from "./git-changes";
import type { SensitiveConsent } from "./sensitive-consent";
import { workspacePath, workspaceUris } from "./workspace-path";

/** Largest file attached by @file: more than a model should read in one go. */
const maxMentionBytes = 256 * 1024;
const listLength = 30;
/**
 * Items of earlier lists that still resolve. The list shown can be older than the newest query
 * (typing outruns the host): Enter picks what the user sees, so its id must still count.
 */
const offeredKept = 1000;

type Target =
  | { kind: "file"; uri: vscode.Uri }
  | { kind: "symbol"; uri: vscode.Uri; name: string; range: vscode.Range }
  | { kind: Exclude<MentionKind, "file" | "symbol"> }
  /** A kind with items to pick, offered while no kind is typed: picking it narrows the list. */
  | { kind: "pick"; of: MentionKind };

/**
 * What the @-mention list offers and what a picked mention attaches. Items are listed by the host
 * and picked by id, so the webview never names a path or a range the host has not offered.
 * Sensitive files are offered only to a query that names them, and picking one asks first.
 */
export class MentionSources {
  private readonly offered = new Map<string, Target>();
  private nextId = 0;

  constructor(
    private readonly index: WorkspaceIndex,
    private readonly newId: () => string,
    private readonly consent: SensitiveConsent,
    /** @terminal: the terminal's last command (throws a readable error when there is none). */
    private readonly terminal?: (newId: () => string) => Promise<CodeAttachment>,
  ) {}

  async list(kind: MentionKind | "", query: string): Promise<MentionItem[]> {
    if (kind === "file") return this.files(query);
    if (kind === "symbol") return this.symbols(query);
    const kinds = rankCandidates(query, mentionKinds, (k) => k.kind).map((k) => this.offer(k.kind === "file" || k.kind === "symbol" ? { kind: "pick", of: k.kind } : { kind: k.kind }, { kind: k.kind, label: k.label, detail: k.description, ...(k.hasItems ? { opensKind: true } : {}) }));
    // Typing a name right after @ finds files too: `@cart` offers src/cart.ts.
    return query === "" ? kinds : [...kinds, ...this.files(query).slice(0, listLength - kinds.length)];
  }

  /** The attachments for an offered item; throws a readable error when there is nothing to attach. */
  async resolve(id: string): Promise<CodeAttachment[]> {
    const target = this.offered.get(id);
    if (target === undefined) throw new Error("That suggestion is out of date: type @ again.");
    switch (target.kind) {
      case "file":
        await this.consent.require(target.uri);
        return [await this.file(target.uri)];
      case "symbol":
        await this.consent.require(target.uri);
        return [await this.symbol(target)];
      case "problems":
        return [problemsAttachment(this.newId, this.isSensitive)];
      case "open":
        return this.openEditors();
      case "selection":
        return [await this.selection()];
      case "git":
        return [await gitChanges(this.newId, this.isSensitive)];
      case "terminal":
        if (this.terminal === undefined) throw new Error("@terminal is not available in this window.");
        return [await this.terminal(this.newId)];
      case "pick":
        throw new Error(`Pick a ${target.of} from the list.`);
    }
  }

  private readonly isSensitive = (uri: vscode.Uri) => this.consent.rules.isSensitive(uri);

  private offer(target: Target, item: Omit<MentionItem, "id">): MentionItem {
    const id = `m${++this.nextId}`;
    this.offered.set(id, target);
    // Oldest first in a Map: drop those past the limit.
    for (const old of this.offered.keys()) {
      if (this.offered.size <= offeredKept) break;
      this.offered.delete(old);
    }
    return { id, ...item };
  }

  private files(query: string): MentionItem[] {
    const open = vscode.window.visibleTextEditors.map((e) => this.index.relativePath(e.document.uri)).filter((p): p is string => p !== undefined);
    const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).flatMap((t) => (t.input instanceof vscode.TabInputText ? [this.index.relativePath(t.input.uri)] : [])).filter((p): p is string => p !== undefined);
    // Open and recently opened files first, then the rest of the index, then sensitive files the query names.
    const paths = [...new Set([...open, ...tabs, ...this.index.index.paths(), ...this.index.sensitiveNamed(query)])];
    // The index names a file in one folder only (its folder's name first in a multi-root workspace).
    return rankCandidates(query, paths, (p) => p, listLength).flatMap((path) => {
      const uri = workspaceUris(path)[0];
      return uri ? [this.offer({ kind: "file", uri }, { kind: "file", label: path.slice(path.lastIndexOf("/") + 1), detail: path })] : [];
    });
  }

  private async symbols(query: string): Promise<MentionItem[]> {
    const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>("vscode.executeWorkspaceSymbolProvider", query)) ?? [];
    const inWorkspace = found.filter((s) => this.index.relativePath(s.location.uri) !== undefined);
    return rankCandidates(query, inWorkspace, (s) => s.name, listLength).map((s) =>
      this.offer(
        { kind: "symbol", uri: s.location.uri, name: s.name, range: s.location.range },
        { kind: "symbol", label: s.name, detail: `${vscode.SymbolKind[s.kind]} · ${workspacePath(s.location.uri)}:${s.location.range.start.line + 1}` },
      ),
    );
  }

  /** A file, whole, as an attachment (the caller has asked about a sensitive one). */
  async file(uri: vscode.Uri): Promise<CodeAttachment> {
    const path = workspacePath(uri);
    const file = await readTextFile(uri, { maxBytes: maxMentionBytes });
    if (file.kind === "too-large") throw new Error(`${path} is larger than ${maxMentionBytes / 1024} KB: not attached. Select the part you mean and use Ask About Selection, or @symbol.`);
    if (file.kind === "binary") throw new Error(`${path} is a binary file: not attached.`);
    const document = await vscode.workspace.openTextDocument(uri);
    const body = file.text.replace(/\r\n/g, "\n").replace(/\n$/, "");
    return { id: this.newId(), path, language: document.languageId, startLine: 1, endLine: Math.max(1, body.split("\n").length), text: body, source: "file" };
  }

  /** The symbol's whole declaration: the document symbol at its location, else the location's lines. */
  private async symbol(target: { uri: vscode.Uri; name: string; range: vscode.Range }): Promise<CodeAttachment> {
    const document = await vscode.workspace.openTextDocument(target.uri);
    const symbols = (await vscode.commands.executeCommand<vscode.DocumentSymbol[] | undefined>("vscode.executeDocumentSymbolProvider", target.uri)) ?? [];
    const declared = findDeclaration(symbols, target.name, target.range.start);
    const range = declared ?? new vscode.Range(target.range.start.line, 0, target.range.end.line, Number.MAX_SAFE_INTEGER);
    const full = document.validateRange(new vscode.Range(range.start.line, 0, range.end.line, Number.MAX_SAFE_INTEGER));
    return {
      id: this.newId(),
      path: workspacePath(target.uri),
      language: document.languageId,
      startLine: full.start.line + 1,
      endLine: full.end.line + 1,
      text: document.getText(full).replace(/\r\n/g, "\n"),
      source: "symbol",
    };
  }

  private async openEditors(): Promise<CodeAttachment[]> {
    const editors: vscode.TextEditor[] = [];
    // What the user works on: a diff's older side (git:) or an Output channel is no open file of theirs.
    for (const editor of vscode.window.visibleTextEditors) if (isUserDocument(editor.document) && (await this.consent.allows(editor.document.uri))) editors.push(editor);
    const attachments = editors.flatMap((editor) => {
      const range = visibleRange(editor);
      if (range === undefined) return [];
      // Blank lines at the end of the view say nothing.
      const text = editor.document.getText(range).replace(/\r\n/g, "\n").replace(/\s+$/, "");
      if (text === "") return [];
      const path = workspacePath(editor.document.uri) || editor.document.fileName;
      const endLine = range.start.line + text.split("\n").length;
      return [{ id: this.newId(), path, language: editor.document.languageId, startLine: range.start.line + 1, endLine, text, source: "open" as const }];
    });
    if (attachments.length === 0) throw new Error("No editor is open: open the files you mean, or use @file.");
    return attachments;
  }

  private async selection(): Promise<CodeAttachment> {
    const editor = vscode.window.activeTextEditor;
    const attachment = editor && !editor.selection.isEmpty ? attachmentFromEditor(editor, this.newId) : undefined;
    if (attachment === undefined) throw new Error("Nothing is selected: select code in an editor first.");
    await this.consent.require(editor!.document.uri);
    return attachment;
  }
}

/** Symbol names without a call's parentheses: providers list `f()` in one place and `f` in another. */
const bareName = (name: string) => name.replace(/\(.*\)$/, "");

function findDeclaration(symbols: readonly vscode.DocumentSymbol[], name: string, at: vscode.Position): vscode.Range | undefined {
  for (const symbol of symbols) {
    if (bareName(symbol.name) === bareName(name) && (symbol.selectionRange.contains(at) || symbol.range.contains(at))) return symbol.range;
    const inner = findDeclaration(symbol.children, name, at);
    if (inner) return inner;
  }
  return undefined;
}
