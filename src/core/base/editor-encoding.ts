import { codePageDecoder } from "./code-page-decoder";

/**
 * A decoder for text the editor reads in `encoding`, one of VS Code's files.encoding ids
 * ("windows1252", "utf16le", "shiftjis"…), which the platform's TextDecoder names otherwise
 * ("windows-1252", "utf-16le", "shift_jis"). UTF-8 for an id it does not know, or none.
 */
export function editorDecoder(encoding: string | undefined): { decode(bytes: Uint8Array): string } {
  // Encodings the platform lacks (cp437…): read with their tables, not as UTF-8 (every accent a U+FFFD).
  const codePage = codePageDecoder(encoding ?? "");
  if (codePage !== undefined) return codePage;
  for (const label of labelsOf(encoding ?? "utf8")) {
    try {
      return new TextDecoder(label);
    } catch {
      // Not a label the platform knows: the next spelling, or UTF-8.
    }
  }
  return new TextDecoder();
}

const renamed: Record<string, string> = { shiftjis: "shift_jis", eucjp: "euc-jp", euckr: "euc-kr", macroman: "macintosh", big5hkscs: "big5", cp950: "big5", utf8bom: "utf-8" };

function labelsOf(id: string): string[] {
  const spelled = id.replace(/^(windows|koi8)(\w+)$/, "$1-$2").replace(/^utf(8|16|32)/, "utf-$1");
  return [renamed[id] ?? spelled, id];
}
