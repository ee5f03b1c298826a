/**
 * Markdown to DOM for model output: markdown-it with raw HTML off, then DOMPurify with a short
 * allow-list (no images, no styles, no event attributes, only http(s)/mailto links). The result
 * is a fragment of inert nodes; code blocks are marked for their action bar.
 */
import DOMPurify from "dompurify";
import MarkdownIt from "markdown-it";
import { looksLikeLinkedPath } from "../../core/chat/code-block-path";
import { maxCodeLanguage } from "../../core/chat/protocol";
import { highlightCode } from "./highlight";

const md = new MarkdownIt({
  html: false,
  linkify: true,
  typographer: false,
  highlight: (code, language) => highlightCode(code, language.trim().toLowerCase()) ?? "",
});

// Images would load remote content (the CSP blocks it anyway): show them as links instead.
md.renderer.rules.image = (tokens, index, options, env, self) => {
  const token = tokens[index]!;
  const src = String(token.attrGet("src") ?? "");
  const alt = self.renderInlineAsText(token.children ?? [], options, env) || src;
  return `<a href="${md.utils.escapeHtml(src)}">${md.utils.escapeHtml(alt)}</a>`;
};

const allowedTags = ["a", "p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del", "s", "code", "pre", "blockquote", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "span"];
const allowedUrl = /^(?:https?:|mailto:)/i;

// The default instance, bound to this page's window; hooks and config stay local to this module.
const purify = DOMPurify;
// A workspace file's line (`src/cart.ts#L12`) passes the URL check here, to become a file link below.
purify.addHook("uponSanitizeAttribute", (node, data) => {
  if (node.tagName === "A" && data.attrName === "href" && fileLine(data.attrValue)) data.forceKeepAttr = true;
});
purify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName !== "A") return;
  const href = node.getAttribute("href") ?? "";
  const file = allowedUrl.test(href) ? undefined : fileLine(href);
  if (!allowedUrl.test(href)) node.removeAttribute("href");
  node.setAttribute("rel", "noopener noreferrer");
  if (file === undefined) return;
  // No href: nothing navigates; the chat view asks the extension to open the file (it must be in the workspace).
  node.classList.add("file-link");
  node.setAttribute("data-path", file.path);
  node.setAttribute("data-line", String(file.line));
  node.setAttribute("role", "link");
  node.setAttribute("tabindex", "0");
  node.setAttribute("title", `Open ${file.path}, line ${file.line}`);
});

/** A relative link to a line of a file: `src/cart.ts#L12` (no scheme, no `..`). */
function fileLine(href: string): { path: string; line: number } | undefined {
  // Lines count from 1, as the extension requires: a link to line 0 would do nothing when clicked.
  const match = /^([^:#?]+)#L([1-9]\d{0,6})$/.exec(href);
  if (!match) return undefined;
  let path: string;
  try {
    // Component-wise: a name's own # or ? comes encoded (%23, %3F), which decodeURI leaves as it is.
    path = decodeURIComponent(match[1]!);
  } catch {
    return undefined;
  }
  return looksLikeLinkedPath(path) ? { path: path.replace(/^\.\//, ""), line: Number(match[2]) } : undefined;
}

const purifyConfig = {
  ALLOWED_TAGS: allowedTags,
  ALLOWED_ATTR: ["href", "title", "class", "start", "rel"],
  ALLOW_DATA_ATTR: false,
  ALLOWED_URI_REGEXP: allowedUrl,
  RETURN_DOM_FRAGMENT: true as const,
};

const textBlocks = "p, li, h1, h2, h3, h4, h5, h6, blockquote, th, td";

/** Sanitized DOM for a markdown text; code blocks carry class `code-block` on their `pre`. */
export function renderMarkdown(text: string): DocumentFragment {
  const fragment = purify.sanitize(md.render(text), purifyConfig);
  for (const pre of fragment.querySelectorAll("pre")) pre.classList.add("code-block");
  // Each block reads in the direction of its own first letters: a Hebrew or Arabic paragraph right
  // to left (its punctuation and the English words in it placed as its reader expects), an English
  // one left to right. Code keeps the page's direction.
  for (const block of fragment.querySelectorAll(textBlocks)) block.setAttribute("dir", "auto");
  return fragment;
}

/** The fence language of a rendered code block ("" when it had none, or one too long for the extension). */
export function codeLanguage(code: Element): string {
  const match = /(?:^|\s)language-([\w+#.-]+)/.exec(code.className);
  // The extension refuses a longer one, and the block's buttons would do nothing.
  return match?.[1] !== undefined && match[1].length <= maxCodeLanguage ? match[1] : "";
}

/** Highlighted code as sanitized nodes (only spans with classes survive); plain text when the language is unknown. */
export function highlightedCode(code: string, language: string): DocumentFragment {
  const html = highlightCode(code, language);
  if (html === undefined) {
    const fragment = document.createDocumentFragment();
    fragment.append(code);
    return fragment;
  }
  return purify.sanitize(html, { ALLOWED_TAGS: ["span"], ALLOWED_ATTR: ["class"], RETURN_DOM_FRAGMENT: true });
}
