/**
 * A file's diff with what looks like a secret masked, line by line: each line's content (after its
 * `+`, `-` or ` `) masked by the rules for source code in a source file (literal secrets only, so
 * that `token: string` stays readable) and by the terminal's rules elsewhere (.env, YAML, shell,
 * where `PASSWORD=hunter2` is a value), and a private key block masked whole from its BEGIN line
 * to its END line, which a line alone cannot tell.
 */
import { keyBegin, keyEnd, mask, maskCodeSecrets, maskSecrets } from "../terminal/mask-secrets";

/** Languages where a name followed by `=` or `:` and no quote is an expression, not a value. */
const sourceFile = /\.(?:[cm]?[jt]sx?|py|pyi|go|rs|java|kt|kts|scala|swift|cs|fs|vb|c|cc|cpp|cxx|h|hh|hpp|m|mm|rb|php|dart|lua|ex|exs|erl|hs|ml|clj|groovy|r|jl|zig|nim|sol|vue|svelte|astro)$/i;

/** The rules for one line of `path`. */
const rulesFor = (path: string) => (sourceFile.test(path) ? maskCodeSecrets : maskSecrets);

/**
 * A masker for the lines of one file, in the file's order: each call masks one line's content,
 * remembering whether a key block is open (its lines are masked whole until its END line).
 */
export function fileLineMasker(path: string): (content: string) => string {
  const maskLine = rulesFor(path);
  let inKey = false;
  return (content) => {
    if (inKey || keyBegin.test(content)) {
      inKey = !keyEnd.test(content);
      return mask;
    }
    return maskLine(content);
  };
}

/** `section` (one file's part of a diff, header first) with its hunks' secrets masked. */
export function maskDiffSecrets(section: string, path: string): string {
  const maskLine = rulesFor(path);
  const maskContent = fileLineMasker(path);
  let inHunk = false;
  return section
    .split("\n")
    .map((line) => {
      // The header stays as it is (`--- a/path` is not a removed line); a hunk head's trailing context is code.
      if (line.startsWith("@@")) {
        inHunk = true;
        return line.replace(/^(@@[^@]*@@)(.+)$/, (_, head: string, context: string) => `${head}${maskLine(context)}`);
      }
      if (!inHunk || !/^[-+ ]/.test(line)) return line;
      return `${line[0]}${maskContent(line.slice(1))}`;
    })
    .join("\n");
}
