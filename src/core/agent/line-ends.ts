/**
 * The line ends of the agent's writes. Models write "\n"; a file keeps the line ends it has, and a
 * new file (or one of a single line) gets those files.eol asks for, as the editor gives a new file,
 * unless the model wrote it in CRLF on purpose (see newFileText).
 */

export type LineEnd = "\n" | "\r\n";

/** The line end a file's text uses ("\r\n" when it has any), or undefined for text of one line. */
export function lineEndOf(text: string): LineEnd | undefined {
  if (text.includes("\r\n")) return "\r\n";
  return text.includes("\n") ? "\n" : undefined;
}

/** The line end files.eol gives new files ("auto": the platform's). */
export function lineEndOfSetting(eol: unknown, platform: string): LineEnd {
  if (eol === "\n" || eol === "\r\n") return eol;
  return platform === "win32" ? "\r\n" : "\n";
}

/** The text with every line break as `eol`. */
export function withLineEnds(text: string, eol: LineEnd): string {
  return text.replace(/\r?\n/g, eol);
}

/**
 * A new file's text: as the model wrote it when it wrote CRLF (a model writes "\n" unless it means
 * otherwise: a .bat file, a file for Windows), else with the line ends files.eol gives new files.
 */
export function newFileText(content: string, eol: LineEnd): string {
  return content.includes("\r\n") ? content : withLineEnds(content, eol);
}
