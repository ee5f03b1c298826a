import { expandBraces } from "../base/glob-braces";

/**
 * `applyTo` globs, matched against workspace-relative paths (forward slashes) as VS Code matches
 * them: regardless of case, `**` any folders (none included), `*` any characters but `/`, `?` one
 * of them, `[abc]` / `[!abc]` a set, `{a,b}` alternatives. A glob matches at any depth (`*.py` is
 * `**\/*.py`, `src/*.ts` is `**\/src/*.ts`), unless it starts with `/` or `./`: Wisp's way to
 * anchor it at the workspace folder.
 */

/** A test for paths matching any of the globs (none: nothing matches). */
export function globMatcher(globs: readonly string[]): (path: string) => boolean {
  const patterns = globs.map(compileGlob).filter((p): p is RegExp => p !== undefined);
  return (path) => {
    const clean = path.replace(/\\/g, "/").replace(/^\.\//, "").replace(/^\/+/, "");
    return patterns.some((p) => p.test(clean));
  };
}

/** The glob as an anchored regular expression; undefined for an empty glob. */
export function compileGlob(glob: string): RegExp | undefined {
  const text = glob.trim().replace(/\\/g, "/");
  if (text === "") return undefined;
  // Each alternative of `{a,b}` is a glob of its own (as VS Code reads it): `{src/**,**/*.md}` anchors and spans folders in both.
  return new RegExp(`^(?:${expandBraces(text).map(alternativeSource).join("|")})$`, "i");
}

function alternativeSource(glob: string): string {
  let text = glob;
  if (text.startsWith("./")) text = text.slice(2);
  else if (text.startsWith("/")) text = text.replace(/^\/+/, "");
  else if (!text.startsWith("**/")) text = `**/${text}`;
  return translate(text);
}

function translate(glob: string): string {
  let out = "";
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i]!;
    if (char === "*") {
      if (glob[i + 1] === "*") {
        // `**/` is any number of whole folders; a trailing `**` is anything at all.
        const atStart = i === 0 || glob[i - 1] === "/";
        if (atStart && glob[i + 2] === "/") {
          out += "(?:[^/]*/)*";
          i += 2;
          continue;
        }
        if (atStart && i + 2 === glob.length) {
          out += ".*";
          i += 1;
          continue;
        }
        out += "[^/]*";
        i += 1;
        continue;
      }
      out += "[^/]*";
    } else if (char === "?") out += "[^/]";
    else if (char === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let set = glob.slice(i + 1, close);
      const negated = set.startsWith("!") || set.startsWith("^");
      if (negated) set = set.slice(1);
      out += `[${negated ? "^/" : ""}${set.replace(/[\\\]^]/g, "\\$&")}]`;
      i = close;
    }
    // Braces left here were never closed: taken literally rather than making the whole glob invalid.
    else out += char.replace(/[.+^$()|\\{}]/g, "\\$&");
  }
  return out;
}
