/** A language as extensions contribute it (package.json contributes.languages). */
export interface ContributedLanguage {
  readonly id: string;
  readonly extensions?: readonly string[];
  readonly filenames?: readonly string[];
}

/**
 * The language VS Code gives a file by its name, for a file not open (whose document would say):
 * files.associations' `*.ext` and exact names first, then the languages' file names, then the
 * longest matching extension. Other glob patterns are not read: undefined when nothing matches.
 */
export function languageOfPath(path: string, languages: readonly ContributedLanguage[], associations: Readonly<Record<string, string>> = {}): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const lower = name.toLowerCase();
  for (const [pattern, id] of Object.entries(associations)) {
    if (pattern === name || (pattern.startsWith("*.") && !pattern.slice(1).includes("*") && lower.endsWith(pattern.slice(1).toLowerCase()))) return id;
  }
  const named = languages.find((l) => l.filenames?.includes(name));
  if (named !== undefined) return named.id;
  let best: { id: string; length: number } | undefined;
  for (const language of languages) {
    for (const extension of language.extensions ?? []) {
      if (lower.endsWith(extension.toLowerCase()) && extension.length > (best?.length ?? 0)) best = { id: language.id, length: extension.length };
    }
  }
  return best?.id;
}
