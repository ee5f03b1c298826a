// Single-line fill-in-the-middle cases from held-out files (never trained on): the cursor in a
// line's code, the rest of that line to write. Each chosen line gives two cases: the cursor at a
// word boundary (after a space or punctuation, where a typist pauses for ghost text) and anywhere
// (inside a word too).
import { collectCorpus } from "../../scripts/train/corpus-files";
import { wordBoundaries } from "../../scripts/train/fim-examples";
import { seededPick } from "../../scripts/train/seeded-pick";

export interface FimCase {
  file: string;
  language: string;
  cursor: "boundary" | "anywhere";
  prefix: string;
  suffix: string;
  /** The rest of the line, what a completion should write. */
  expected: string;
}

const PREFIX_CHARS = 3000;
const SUFFIX_CHARS = 800;

/** About `perFile` cases from each held-out file, the same ones on every run. */
export function heldOutCases(repoRoot: string, perFile = 5): { cases: FimCase[]; trainingFiles: { text: string }[] } {
  const corpus = collectCorpus(repoRoot);
  const pick = seededPick(2024);
  const cases: FimCase[] = [];
  for (const file of corpus.filter((f) => f.split === "heldout")) {
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
          language: file.language,
          cursor,
          prefix: file.text.slice(Math.max(0, from - PREFIX_CHARS), from),
          suffix: file.text.slice(end, end + SUFFIX_CHARS),
          expected: line.slice(at).trimEnd(),
        });
      }
    }
  }
  return { cases, trainingFiles: corpus.filter((f) => f.split === "train") };
}
