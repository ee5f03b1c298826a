import { codeBlockPath } from "../../core/chat/code-block-path";
import { codePointName, hiddenChars, splitHidden } from "../../core/chat/hidden-chars";
import type { CodeAction } from "../../core/chat/protocol";
import { actionButton, append, el } from "./dom";
import { codeLanguage } from "./markdown";

const actions: readonly { action: CodeAction; text: string; label: string }[] = [
  { action: "copy", text: "Copy", label: "Copy code" },
  { action: "insert", text: "Insert", label: "Insert at Cursor" },
  { action: "apply", text: "Apply", label: "Apply to the Editor (review the change)" },
  { action: "newFile", text: "New File", label: "Open in New File" },
];

/** What a code block's button asks for, with the code and language of its block. */
export interface CodeBlockAction {
  readonly action: CodeAction;
  readonly code: string;
  readonly language: string;
  /** The workspace file the block names: Apply edits that file. */
  readonly path?: string;
}

/**
 * Puts each rendered code block in a frame with its language and buttons that call `onAction`;
 * a block that names a workspace file (see codeBlockPath) also gets Open, and its Apply edits
 * that file.
 */
export function decorateCodeBlocks(root: ParentNode, onAction: (request: CodeBlockAction) => void, onOpenFile: (path: string) => void): void {
  for (const pre of root.querySelectorAll("pre.code-block")) {
    const code = pre.querySelector("code");
    const language = code ? codeLanguage(code) : "";
    const bar = el("div", { className: "code-bar" }, el("span", { className: "code-language" }, language || "text"));
    const hidden = code ? markHidden(code) : [];
    // Copy, Insert and Apply take the code as it is: the reader must know what it holds unseen.
    const warning = hidden.length > 0 ? el("p", { className: "code-hidden", role: "note" }, `Hidden characters in this code: ${hidden.map(codePointName).join(", ")} (marked; Copy, Insert and Apply keep them)`) : undefined;
    const before = [...(pre.previousElementSibling?.querySelectorAll("code") ?? [])].map((c) => c.textContent ?? "");
    const path = codeBlockPath((code?.textContent ?? "").split("\n", 1)[0] ?? "", before);
    if (path !== undefined) bar.append(actionButton(`Open ${path}`, () => onOpenFile(path), { className: "open-file" }, `Open ${path}`));
    for (const { action, text, label } of actions) {
      // Apply edits the file the block names, when it names one; else the editor last used.
      const target = action === "apply" && path !== undefined ? { path } : {};
      // The code is read when clicked: a block still streaming grows after its buttons are built.
      const run = () => {
        if (code) onAction({ action, code: code.textContent ?? "", language, ...target });
      };
      bar.append(actionButton(target.path ? `Apply to ${target.path} (review the change)` : label, run, {}, text));
    }
    const frame = el("div", { className: "code-frame", "data-language": language });
    pre.replaceWith(frame);
    append(frame, bar, warning, pre);
  }
}

/** Wraps each hidden character of the code in a marked span (its text unchanged, so Copy still gets it); returns them. */
function markHidden(code: Element): string[] {
  const found = hiddenChars(code.textContent ?? "");
  if (found.length === 0) return found;
  const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
  const texts: Text[] = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node as Text);
  for (const text of texts) {
    const parts = splitHidden(text.data);
    if (parts.length === 1 && !parts[0]!.hidden) continue;
    text.replaceWith(...parts.map((p) => (p.hidden ? el("span", { className: "hidden-char", "data-char": codePointName(p.text), title: codePointName(p.text) }, p.text) : p.text)));
  }
  return found;
}
