import { leadingWhitespace, Reindenter } from "./reindent";

/**
 * Code put in at a cursor (chat's Insert), `before` being the cursor line's text before the
 * cursor: the lines after the first follow the cursor's line, keeping their depth relative to the
 * first (tabs or spaces as the editor uses, each space level of the reply a tab in a file indented
 * with tabs, as Apply re-indents). At the line's indentation (an empty line's included) the first
 * line starts at the cursor, its own indentation left out; after code on the line it goes as written.
 */
export function codeAtCursor(code: string, before: string, options: { readonly useTabs: boolean; readonly tabSize: number }): string {
  const lines = code.split(/\r?\n/);
  if (lines.length === 1 && before.trim() !== "") return code;
  const atIndent = before.trim() === "";
  const target = atIndent ? before : leadingWhitespace(before);
  const reindenter = new Reindenter({ target, ...options });
  return lines
    .map((line, index) => {
      const shown = reindenter.line(line);
      if (index > 0) return shown;
      return atIndent ? shown.slice(target.length) : line;
    })
    .join("\n");
}
