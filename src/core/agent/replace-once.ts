import { withLineEnds, type LineEnd } from "./line-ends";

/**
 * replace_string_in_file on a text: old_string must match exactly once. In a file of `eol` "\r\n"
 * the model's "\n" in old_string and new_string stand for "\r\n" (models write "\n").
 */
export function replaceOnce(text: string, oldString: string, newString: string, eol: LineEnd): { readonly text: string } | { readonly matches: number } {
  const crlf = eol === "\r\n" && !oldString.includes("\r\n");
  const oldText = crlf ? withLineEnds(oldString, "\r\n") : oldString;
  const newText = crlf ? withLineEnds(newString, "\r\n") : newString;
  const matches = occurrences(text, oldText);
  if (matches !== 1) return { matches };
  const index = text.indexOf(oldText);
  return { text: text.slice(0, index) + newText + text.slice(index + oldText.length) };
}

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}
