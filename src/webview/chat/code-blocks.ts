import { codeBlockPath } from "../../core/chat/code-block-path";
import type { CodeAction } from "../../core/chat/protocol";
import { actionButton, el } from "./dom";
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
    frame.append(bar, pre);
  }
}
