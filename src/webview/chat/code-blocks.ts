import type { CodeAction } from "../../core/chat/protocol";
import { button, el } from "./dom";
import { codeLanguage } from "./markdown";

const actions: readonly { action: CodeAction; text: string; label: string }[] = [
  { action: "copy", text: "Copy", label: "Copy code" },
  { action: "insert", text: "Insert", label: "Insert at Cursor" },
  { action: "replace", text: "Replace", label: "Replace Selection" },
  { action: "newFile", text: "New File", label: "Open in New File" },
];

/** Puts each rendered code block in a frame with its language and action buttons. */
export function decorateCodeBlocks(root: ParentNode): void {
  for (const pre of root.querySelectorAll("pre.code-block")) {
    const code = pre.querySelector("code");
    const language = code ? codeLanguage(code) : "";
    const bar = el("div", { className: "code-bar" }, el("span", { className: "code-language" }, language || "text"));
    for (const { action, text, label } of actions) bar.append(button(label, { "data-code-action": action }, text));
    const frame = el("div", { className: "code-frame", "data-language": language });
    pre.replaceWith(frame);
    frame.append(bar, pre);
  }
}

/** The action a click asks for, with the code and language of its block. */
export function codeActionFor(target: EventTarget | null): { action: CodeAction; code: string; language: string } | undefined {
  if (!(target instanceof Element)) return undefined;
  const trigger = target.closest<HTMLElement>("[data-code-action]");
  const frame = trigger?.closest<HTMLElement>(".code-frame");
  const code = frame?.querySelector("pre code");
  if (!trigger || !frame || !code) return undefined;
  return { action: trigger.dataset.codeAction as CodeAction, code: code.textContent ?? "", language: frame.dataset.language ?? "" };
}
