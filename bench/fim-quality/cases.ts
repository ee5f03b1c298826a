// Single-line fill-in-the-middle cases from held-out files (never trained on): the cursor
// somewhere in a line's code, the rest of that line to write.
import { collectCorpus } from "../../scripts/train/corpus-files";
import { seededPick } from "../../scripts/train/seeded-pick";

export interface FimCase {
  file: string;
  language: string;
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
      const cursor = indent + pick(Math.max(1, line.trimEnd().length - indent - 3));
      const from = starts[l]! + cursor;
      const end = starts[l]! + line.length;
      cases.push({
        file: file.path,
        language: file.language,
        prefix: file.text.slice(Math.max(0, from - PREFIX_CHARS), from),
        suffix: file.text.slice(end, end + SUFFIX_CHARS),
        expected: line.slice(cursor).trimEnd(),
      });
    }
  }
  return { cases, trainingFiles: corpus.filter((f) => f.split === "train") };
}
