/**
 * Git's unified diffs taken apart by file, so that @git can leave out the changes of files that
 * must not be sent (a changed `.env` shows its secrets in the diff as much as in the file).
 */

export interface FilteredDiff {
  readonly text: string;
  /** Repository-relative paths of the files left out, in the diff's order. */
  readonly dropped: readonly string[];
}

/** One file's part of a diff: its text (header included) and the paths its header names. */
export interface DiffSection {
  readonly text: string;
  /** Repository-relative; both sides of a rename or copy. The new side is last. */
  readonly paths: readonly string[];
}

/**
 * A file's header in a diff: `diff --git` and, for a file with merge conflicts (git diff during a
 * merge, rebase or cherry-pick) or a merge commit's changes (git show), `diff --cc` and `diff --combined`.
 */
export const diffHeader = /^diff --(?:git|cc|combined) /m;

/** A unified diff of several files, split at each file's header (text before the first one is a section of no path). */
export function diffSections(diff: string): DiffSection[] {
  return diff.split(new RegExp(`(?=${diffHeader.source})`, "m")).filter((text) => text !== "").map((text) => ({ text, paths: sectionPaths(text) }));
}

/** `diff` without the sections of files for which `drop` says yes (either side of a rename counts). */
export function withoutFiles(diff: string, drop: (path: string) => boolean): FilteredDiff {
  const kept: string[] = [];
  const dropped: string[] = [];
  for (const { text: section, paths } of diffSections(diff)) {
    const left = paths.filter(drop);
    if (left.length === 0) kept.push(section);
    else dropped.push(...left.filter((p) => !dropped.includes(p)));
  }
  return { text: kept.join(""), dropped };
}

/**
 * The prefixes git may put before a diff's old and new paths: a/ and b/ by default; c/ (commit),
 * i/ (index), w/ (work tree), o/ (object) with diff.mnemonicPrefix; none with diff.noprefix.
 */
const prefixPairs: readonly (readonly [string, string])[] = [["a/", "b/"], ["c/", "i/"], ["i/", "w/"], ["c/", "w/"], ["o/", "w/"], ["1/", "2/"], ["", ""]];

/** The prefixes of a section whose `diff --git` line is `line`, and the path it names on both sides (none for a rename). */
function headerPrefixes(line: string): { prefixes: readonly [string, string]; path?: string } {
  const rest = line.slice("diff --git ".length).replace(/^("(?:[^"\\]|\\.)*"|\S+) ("(?:[^"\\]|\\.)*"|\S+)$/, (whole, a: string, b: string) =>
    a.startsWith('"') || b.startsWith('"') ? `${gitPath(a)} ${gitPath(b)}` : whole,
  );
  for (const prefixes of prefixPairs) {
    const [old, renamed] = prefixes;
    // The same path on both sides: `old+P renamed+P`.
    const pathLength = (rest.length - old.length - renamed.length - 1) / 2;
    if (!Number.isInteger(pathLength) || pathLength < 1) continue;
    const path = rest.slice(old.length, old.length + pathLength);
    if (rest === `${old}${path} ${renamed}${path}`) return { prefixes, path };
  }
  // A rename: its `rename from/to` lines name both sides.
  return { prefixes: prefixPairs.find(([old, renamed]) => old !== "" && rest.startsWith(old) && rest.includes(` ${renamed}`)) ?? ["", ""] };
}

/** The paths a section's header names: both sides, renames and copies, whatever prefixes git's settings give them. */
function sectionPaths(section: string): string[] {
  const header = section.split(/^@@/m)[0]!.split("\n");
  const paths = new Set<string>();
  // A merge's combined `diff --cc P` (or `diff --combined P`) names its one path, quoted as git quotes it.
  const combined = /^diff --(?:cc|combined) (.*)$/.exec(header[0]!);
  const { prefixes, path } = header[0]!.startsWith("diff --git ") ? headerPrefixes(header[0]!) : { prefixes: prefixPairs[0]!, path: combined ? gitPath(combined[1]!) : undefined };
  // A mode change or a binary file has no ---/+++ lines: `diff --git a/P b/P` names P twice.
  if (path !== undefined) paths.add(path);
  for (const line of header) {
    // git ends a path that has a space with a tab.
    const side = /^(---|\+\+\+) (.*?)\t?$/.exec(line);
    const sidePath = side && gitPath(side[2]!);
    if (sidePath && sidePath !== "/dev/null") {
      const prefix = prefixes[side![1] === "---" ? 0 : 1];
      if (sidePath.startsWith(prefix)) paths.add(sidePath.slice(prefix.length));
    }
    const moved = /^(?:rename|copy) (?:from|to) (.*)$/.exec(line);
    if (moved) paths.add(gitPath(moved[1]!));
  }
  // The new side last: `+++ b/` or `rename to` come after the old side's lines.
  return [...paths];
}

const cEscapes: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/**
 * A path as git writes it in a diff: as it is, or, when it has a byte past ASCII (café.md), a
 * control character or a quote, in double quotes with C escapes and the UTF-8 bytes in octal
 * (`"caf\\303\\251.md"`, core.quotePath's default, which VS Code's git leaves on).
 */
export function gitPath(text: string): string {
  if (!/^"(?:[^"\\]|\\.)*"$/.test(text)) return text;
  const bytes: number[] = [];
  const utf8 = new TextEncoder();
  const body = text.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (ch !== "\\") {
      bytes.push(...utf8.encode(ch));
      continue;
    }
    const octal = /^[0-3][0-7]{2}/.exec(body.slice(i + 1, i + 4));
    if (octal) {
      bytes.push(parseInt(octal[0], 8));
      i += 3;
    } else {
      const next = body[++i]!;
      bytes.push(cEscapes[next] ?? next.charCodeAt(0));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
