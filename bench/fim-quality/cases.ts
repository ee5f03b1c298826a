// Single-line fill-in-the-middle cases from held-out files (never trained on): the cursor in a
// line's code, the rest of that line to write. Each chosen line gives two cases: the cursor at a
// word boundary (after a space or punctuation, where a typist pauses for ghost text) and anywhere
// (inside a word too).
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { collectCorpus } from "../../scripts/train/corpus-files";
import { wordBoundaries } from "../../scripts/train/fim-examples";
import { SeenLines } from "../../scripts/train/line-hashes";
import { seededPick } from "../../scripts/train/seeded-pick";

export interface FimCase {
  file: string;
  /** The outside project (third_party's folder, `owner__name`); "heldout" for the training corpus's held-out files. */
  project: string;
  /** Settings are chosen on "dev" only; "test" is what is reported as the result. */
  split: "dev" | "test";
  language: string;
  cursor: "boundary" | "anywhere";
  prefix: string;
  suffix: string;
  /** The rest of the line, what a completion should write. */
  expected: string;
}

const PREFIX_CHARS = 3000;
const SUFFIX_CHARS = 800;

interface SourceFile {
  readonly path: string;
  readonly project: string;
  readonly split: FimCase["split"];
  readonly language: string;
  readonly text: string;
}

/** Cases from one file: `perFile` lines with code to complete, each at a word boundary and anywhere. */
function casesFromFile(file: SourceFile, pick: (n: number) => number, perFile: number): FimCase[] {
  const cases: FimCase[] = [];
  const lines = file.text.split("\n");
  const starts: number[] = [];
  let at = 0;
  for (const line of lines) {
    starts.push(at);
    at += line.length + 1;
  }
  // Lines with something to complete: code of at least a few characters, not a comment.
  const candidates = lines.flatMap((line, i) => {
    const code = line.trim();
    return code.length >= 8 && !/^(\/\/|#|\*|\/\*)/.test(code) ? [i] : [];
  });
  for (let k = 0; k < perFile && candidates.length > 0; k++) {
    const l = candidates.splice(pick(candidates.length), 1)[0]!;
    const line = lines[l]!;
    const indent = line.search(/\S/);
    // At least 3 characters of the line are left to write.
    const last = Math.max(indent + 1, line.trimEnd().length - 3);
    // Word boundaries as the training cuts define them.
    const boundaries = wordBoundaries(line, indent, last);
    const anywhere = indent + pick(last - indent);
    const positions: [FimCase["cursor"], number][] = [["anywhere", anywhere]];
    if (boundaries.length > 0) positions.push(["boundary", boundaries[pick(boundaries.length)]!]);
    const end = starts[l]! + line.length;
    for (const [cursor, at] of positions) {
      const from = starts[l]! + at;
      cases.push({
        file: file.path,
        project: file.project,
        split: file.split,
        language: file.language,
        cursor,
        prefix: file.text.slice(Math.max(0, from - PREFIX_CHARS), from),
        suffix: file.text.slice(end, end + SUFFIX_CHARS),
        expected: line.slice(at).trimEnd(),
      });
    }
  }
  return cases;
}

/**
 * About `perFile` cases from each file the training split left out. These files come from the
 * same packages as the training files (a module's browser copy beside its CommonJS one), so they
 * flatter a model: see outsideCases for the honest set.
 */
export function heldOutCases(repoRoot: string, perFile = 5): { cases: FimCase[]; trainingFiles: { text: string }[] } {
  const corpus = collectCorpus(repoRoot);
  const pick = seededPick(2024);
  const cases = corpus.filter((f) => f.split === "heldout").flatMap((file) => casesFromFile({ ...file, project: "heldout", split: "dev" }, pick, perFile));
  return { cases, trainingFiles: corpus.filter((f) => f.split === "train") };
}

const languageOf: Record<string, string> = { ".py": "python", ".js": "javascript", ".mjs": "javascript", ".ts": "typescript", ".tsx": "typescript" };

/** Half the files of each project, by a hash of the path inside it: a file's cases stay together. */
const splitOf = (inProject: string): FimCase["split"] => (createHash("sha256").update(inProject).digest()[0]! % 2 === 0 ? "dev" : "test");

function sourceFiles(root: string, dir = root): SourceFile[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) return sourceFiles(root, full);
      const language = languageOf[path.extname(name)];
      if (!language) return [];
      const [project, ...inProject] = path.relative(root, full).split(path.sep);
      return [{ path: full, project: project!, split: splitOf(inProject.join("/")), language, text: readFileSync(full, "utf8").replace(/\r\n/g, "\n") }];
    });
}

/**
 * Cases from code outside the training data and this repository's dependencies
 * (bench/fim-quality/third_party, see its SOURCES.md). A file sharing more than a third of its
 * lines with the training files is left out as a near-duplicate.
 */
export function outsideCases(repoRoot: string, trainingFiles: readonly { text: string }[], perFile = 5): { cases: FimCase[]; files: number; nearDuplicates: number } {
  const seen = new SeenLines(trainingFiles.map((f) => f.text));
  const files = sourceFiles(path.join(repoRoot, "bench/fim-quality/third_party"));
  const kept = files.filter((f) => seen.sharedShare(f.text) <= 1 / 3);
  // One sequence of picks per project, so adding a project leaves the others' cases as they were.
  const picks = new Map<string, (n: number) => number>();
  const pickFor = (project: string) => picks.get(project) ?? picks.set(project, seededPick(2025)).get(project)!;
  return { cases: kept.flatMap((f) => casesFromFile(f, pickFor(f.project), perFile)), files: kept.length, nearDuplicates: files.length - kept.length };
}
