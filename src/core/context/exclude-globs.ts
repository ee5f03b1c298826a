import { expandBraces } from "../base/glob-braces";

/**
 * The editor's `files.exclude` patterns, matched as its file search matches them, so that one
 * changed file can be judged without asking the search service (a search per file cost about
 * 40 ms of CPU). Glob syntax as VS Code's: `*` and `?` within a path segment, `**` across
 * segments, `{a,b}` alternatives, `[...]` character ranges; a pattern applies to the path from the
 * workspace folder, and a folder it matches takes everything in it along.
 */

/** `files.exclude`: a pattern to `true` (excluded), `false` (turned off), or a sibling condition. */
export type ExcludeSetting = Readonly<Record<string, unknown>>;

export type ExcludeVerdict = "excluded" | "included" | "depends-on-siblings";

export class ExcludeGlobs {
  private readonly plain: RegExp[] = [];
  /** Patterns with a `when` clause (`{"when": "$(basename).ts"}`): decided by the files beside. */
  private readonly conditional: RegExp[] = [];

  constructor(setting: ExcludeSetting | undefined) {
    for (const [pattern, value] of Object.entries(setting ?? {})) {
      if (value === true) this.plain.push(globToRegExp(pattern));
      else if (typeof value === "object" && value !== null && typeof (value as { when?: unknown }).when === "string") this.conditional.push(globToRegExp(pattern));
    }
  }

  /** Whether a workspace-relative path (forward slashes) or a folder above it is excluded. */
  verdict(path: string): ExcludeVerdict {
    const prefixes = ancestorsAndSelf(path);
    if (this.plain.some((re) => prefixes.some((p) => re.test(p)))) return "excluded";
    if (this.conditional.some((re) => prefixes.some((p) => re.test(p)))) return "depends-on-siblings";
    return "included";
  }
}

/** "a/b/c.ts" -> ["a", "a/b", "a/b/c.ts"]. */
function ancestorsAndSelf(path: string): string[] {
  const parts = path.split("/").filter((p) => p !== "");
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
}

const segmentChar = "[^/]";

/** A glob as an anchored regular expression over a relative path. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^(?:${expandBraces(glob).map(globSource).join("|")})$`);
}

function globSource(glob: string): string {
  const segments = glob.replace(/\\/g, "/").replace(/^\.?\//, "").replace(/\/$/, "").split("/");
  let source = "";
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === "**") {
      // Any number of whole segments: "**/x" also matches "x", "a/**" also matches "a".
      source += last ? (i === 0 ? ".*" : "(?:/.*)?") : i === 0 ? "(?:[^/]*/)*" : "(?:/[^/]*)*/";
      return;
    }
    if (i > 0 && segments[i - 1] !== "**") source += "/";
    source += segmentToRegExp(segment);
  });
  return source;
}

function segmentToRegExp(segment: string): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === "*") {
      while (segment[i + 1] === "*") i++;
      out += `${segmentChar}*`;
    } else if (c === "?") out += segmentChar;
    else if (c === "[") {
      const end = segment.indexOf("]", i + 2);
      if (end < 0) {
        out += "\\[";
        continue;
      }
      const body = segment.slice(i + 1, end).replace(/\\/g, "\\\\");
      out += `[${body.startsWith("!") ? `^${body.slice(1)}` : body}]`;
      i = end;
    } else out += c.replace(/[.+^$()|\\\]{}]/g, "\\$&");
  }
  return out;
}
