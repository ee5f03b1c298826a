/**
 * grep_search's matching: lines of files' text that contain the query (a plain string, case
 * insensitive, or a regular expression), as `path:line: text` rows, at most `limit` of them.
 */
import { escapeRegExp } from "../base/escape-reg-exp";
import { cutAt } from "../base/surrogates";
import { maxReadSize } from "./read-limit";

export interface GrepQuery {
  readonly query: string;
  readonly isRegexp: boolean;
}

export interface GrepMatch {
  readonly path: string;
  readonly line: number;
  readonly text: string;
}

/** Longest line text shown in a row: minified code would otherwise fill the result. */
const maxLineChars = 240;

/** A query's tests: for a line, and a quick one for a whole text (most texts have no match at all). */
export interface LineMatcher {
  (line: string): boolean;
  readonly anywhere: (text: string) => boolean;
}

/** The line test for a query, or an error the model reads (a bad regular expression). */
export function lineMatcher(query: GrepQuery): LineMatcher | { readonly error: string } {
  if (query.query === "") return { error: "The query is empty." };
  const source = query.isRegexp ? query.query : escapeRegExp(query.query);
  let line: RegExp;
  let text: RegExp;
  try {
    line = new RegExp(source, "i");
    // Multiline, so ^ and $ mean what they mean for one line.
    text = new RegExp(source, "im");
  } catch (error) {
    return { error: `The query is not a valid regular expression: ${(error as Error).message}` };
  }
  return Object.assign((l: string) => line.test(l), { anywhere: (t: string) => text.test(t) });
}

/** Matches in one piece of a file (its text starting at `firstLine`), appended to `into` up to `limit`. */
export function grepText(path: string, text: string, firstLine: number, matches: LineMatcher, into: GrepMatch[], limit: number): void {
  if (into.length >= limit || !matches.anywhere(text)) return;
  const lines = text.split("\n");
  for (let i = 0; i < lines.length && into.length < limit; i++) {
    const line = lines[i]!.replace(/\r$/, "");
    if (matches(line)) into.push({ path, line: firstLine + i, text: line.length > maxLineChars ? `${cutAt(line, maxLineChars)}…` : line });
  }
}

export function formatMatches(matches: readonly GrepMatch[], limit: number, skipped: number, tooLarge: readonly string[] = []): string {
  const notes = skippedNote(skipped) + tooLargeNote(tooLarge);
  if (matches.length === 0) return `No matches.${notes}`;
  const rows = matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
  const more = matches.length >= limit ? `\n[Only the first ${limit} matches are shown: narrow the query or use include.]` : "";
  return `${rows.join("\n")}${more}${notes}`;
}

/** Files too large to search are named: "No matches." alone would say they hold none. */
function tooLargeNote(paths: readonly string[]): string {
  if (paths.length === 0) return "";
  const shown = paths.length > 5 ? `${paths.slice(0, 5).join(", ")} and ${paths.length - 5} more` : paths.join(", ");
  return `\n[${paths.length} file(s) over ${maxReadSize} not searched: ${shown}. Search ${paths.length === 1 ? "it" : "them"} with a command (grep) instead.]`;
}

function skippedNote(skipped: number): string {
  return skipped > 0 ? `\n[${skipped} sensitive file(s) not searched (wisp.sensitiveFiles, .wispignore): read one by name to ask the user.]` : "";
}
