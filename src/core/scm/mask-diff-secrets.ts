/**
 * A file's diff with what looks like a secret masked, line by line: the masking rules of terminal
 * text applied to each line's content (after its `+`, `-` or ` `), and a private key block masked
 * whole from its BEGIN line to its END line, which a line alone cannot tell.
 */
import { mask, maskSecrets } from "../terminal/mask-secrets";

const keyBegin = /-----BEGIN [A-Z ]*PRIVATE KEY-----/;
const keyEnd = /-----END [A-Z ]*PRIVATE KEY-----/;

/** `section` (one file's part of a diff, header first) with its hunks' secrets masked. */
export function maskDiffSecrets(section: string): string {
  let inHunk = false;
  let inKey = false;
  return section
    .split("\n")
    .map((line) => {
      // The header stays as it is (`--- a/path` is not a removed line); a hunk head's trailing context is code.
      if (line.startsWith("@@")) {
        inHunk = true;
        return line.replace(/^(@@[^@]*@@)(.+)$/, (_, head: string, context: string) => `${head}${maskSecrets(context)}`);
      }
      if (!inHunk || !/^[-+ ]/.test(line)) return line;
      const content = line.slice(1);
      if (inKey || keyBegin.test(content)) {
        inKey = !keyEnd.test(content);
        return `${line[0]}${mask}`;
      }
      return `${line[0]}${maskSecrets(content)}`;
    })
    .join("\n");
}
