/**
 * Characters code can hold that a reader cannot see: controls (an ANSI escape's ESC), zero-width
 * ones and the bidirectional overrides and isolates of "Trojan Source" (code that reads one way
 * and compiles another). Tab, line ends, and the joiners that emoji and some scripts need are not
 * among them.
 */
const hidden = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u061C\u180E\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\uFEFF]/g;

/** The hidden characters of `text`, in order, each once. */
export function hiddenChars(text: string): string[] {
  return [...new Set(text.match(hidden) ?? [])];
}

/** A hidden character as a reader can name it: U+202E. */
export function codePointName(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** `text` cut around its hidden characters: plain runs, and the characters alone. */
export function splitHidden(text: string): { text: string; hidden: boolean }[] {
  const parts: { text: string; hidden: boolean }[] = [];
  let at = 0;
  for (const match of text.matchAll(hidden)) {
    if (match.index > at) parts.push({ text: text.slice(at, match.index), hidden: false });
    parts.push({ text: match[0], hidden: true });
    at = match.index + match[0].length;
  }
  if (at < text.length) parts.push({ text: text.slice(at), hidden: false });
  return parts;
}
