// Drives StreamingMarkdown in the test page: an answer streamed piece by piece, or shown at once
// (as after a reload), and what the reader then sees and what its buttons and links ask for.
import type { CodeBlockAction } from "../../../../src/webview/chat/code-blocks";
import { StreamingMarkdown } from "../../../../src/webview/chat/streaming-markdown";

type Asked = { code: CodeBlockAction } | { open: { path: string; line?: number } };

function show(pieces: readonly string[]) {
  const asked: Asked[] = [];
  const view = new StreamingMarkdown(
    (code) => asked.push({ code }),
    (path, line) => asked.push({ open: { path, ...(line === undefined ? {} : { line }) } }),
  );
  document.body.replaceChildren(view.element);
  let text = "";
  pieces.forEach((piece, i) => view.update((text += piece), i === pieces.length - 1));
  const root = view.element;
  return {
    text: root.innerText,
    /** Each code block's buttons, by what they say to a screen reader. */
    blocks: [...root.querySelectorAll(".code-frame")].map((frame) => [...frame.querySelectorAll("button")].map((b) => b.getAttribute("aria-label"))),
    /** Each code block's note on characters it holds unseen, and the characters marked in it as drawn. */
    hidden: [...root.querySelectorAll(".code-frame")].map((frame) => ({
      note: frame.querySelector(".code-hidden")?.textContent ?? null,
      marked: [...frame.querySelectorAll(".hidden-char")].map((m) => getComputedStyle(m, "::before").content),
    })),
    links: [...root.querySelectorAll("a")].map((a) => ({ text: a.textContent, href: a.getAttribute("href"), path: a.getAttribute("data-path"), line: a.getAttribute("data-line") })),
    /** What clicking every button and file link asks the extension for. */
    asked: clickAll(root, asked),
  };
}

function clickAll(root: HTMLElement, asked: Asked[]): Asked[] {
  for (const node of root.querySelectorAll<HTMLElement>(".code-frame button, a.file-link")) node.click();
  return asked;
}

/** The answer as it streams in `pieces`, then ends. */
const streamed = (pieces: readonly string[]) => show(pieces);
/** The same answer rendered at once, as a reload shows it. */
const whole = (text: string) => show([text]);
/** Streamed a few characters at a time, like tokens. */
const tokens = (text: string, size = 3) => streamed(Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size)));

Object.assign(window, { markdownPage: { streamed, whole, tokens } });
