/** The text outside fenced code blocks, line by line (a `# comment` in a shell block is no heading). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split("\n").filter((line) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    return !fenced && !/^\s*```/.test(line);
  });
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
      .toLowerCase()
      .replace(/[^\p{L}\p{M}\p{N}_ -]/gu, "")
      .replace(/ /g, "-");
    let anchor = slug;
    for (let n = 1; anchors.has(anchor); n++) anchor = `${slug}-${n}`;
    anchors.add(anchor);
  }
  return anchors;
}

/** The targets of a page's Markdown links and images, outside code. */
export function linkTargets(text: string): string[] {
  return proseLines(text)
    .map((line) => line.replace(/`[^`]*`/g, ""))
    .flatMap((line) => [...line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!));
}

/** The links to files of the same tree (no scheme such as https: or mailto:), without their anchors. */
export function relativeFileLinks(text: string): { target: string; path: string; anchor: string | undefined }[] {
  return linkTargets(text)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
    .map((target) => {
      const [path = "", anchor] = target.split("#");
      return { target, path: decodeURIComponent(path), anchor };
    });
}
