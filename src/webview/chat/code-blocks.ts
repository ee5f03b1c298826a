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
}

/**
 * Puts each rendered code block in a frame with its language and buttons that call `onAction`;
 * a block that names a workspace file (see codeBlockPath) also gets Open.
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
      // The code is read when clicked: a block still streaming grows after its buttons are built.
      const run = () => {
        if (code) onAction({ action, code: code.textContent ?? "", language });
      };
      bar.append(actionButton(label, run, {}, text));
    }
    const frame = el("div", { className: "code-frame", "data-language": language });
    pre.replaceWith(frame);
    frame.append(bar, pre);
  }
}
