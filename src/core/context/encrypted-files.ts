/**
 * Files a repository keeps encrypted: `.gitattributes` gives them an encrypting filter or a
 * decrypting diff driver (git-crypt's `filter=git-crypt diff=git-crypt`, transcrypt's `crypt`,
 * sops' `diff=sopsdiffer`). They hold what the team chose to keep secret, and git shows them
 * decrypted: the working tree holds git-crypt's plain text, and `git diff` (the agent's
 * auto-approved one, @git's) runs the driver's textconv, which decrypts. So they count as sensitive.
 */

/** A driver named so encrypts or decrypts. */
const encrypting = /crypt|sops|secret|vault|gpg/i;

/** The patterns (gitignore syntax, relative to the file's folder) of the files `.gitattributes` text encrypts. */
export function encryptedPatterns(gitattributes: string): string[] {
  const macros = new Set<string>();
  const patterns: string[] = [];
  for (const raw of gitattributes.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const [first, ...attributes] = line.split(/\s+/);
    const encrypts = attributes.some((a) => macros.has(a) || /^(filter|diff)=/.test(a) && encrypting.test(a.slice(a.indexOf("=") + 1)));
    if (!encrypts) continue;
    // `[attr]secret filter=git-crypt diff=git-crypt` names a macro that later lines set.
    if (first!.startsWith("[attr]")) macros.add(first!.slice("[attr]".length));
    else patterns.push(unquoted(first!));
  }
  return patterns;
}

/** A pattern git reads in C-style quotes (`"a b.env"`), as written otherwise. */
function unquoted(pattern: string): string {
  return pattern.length > 1 && pattern.startsWith('"') && pattern.endsWith('"') ? pattern.slice(1, -1).replace(/\\(.)/g, "$1") : pattern;
}
