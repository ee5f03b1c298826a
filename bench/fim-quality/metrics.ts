// How close a suggested line is to the real one: exact match, and edit similarity
// (1 - Levenshtein distance / the longer length), as code-completion benchmarks report them.

import { levenshtein } from "../../src/core/base/edit-distance";

export function firstLine(text: string): string {
  const cut = text.indexOf("\n");
  return (cut < 0 ? text : text.slice(0, cut)).trimEnd();
}

export function editSimilarity(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest;
}

export interface Score {
  exactMatch: number;
  editSimilarity: number;
  cases: number;
}

export function score(pairs: readonly { expected: string; suggested: string }[]): Score {
  const lines = pairs.map((p) => ({ expected: p.expected.trimEnd(), suggested: firstLine(p.suggested) }));
  return {
    exactMatch: lines.filter((l) => l.expected === l.suggested).length / lines.length,
    editSimilarity: lines.reduce((a, l) => a + editSimilarity(l.expected, l.suggested), 0) / lines.length,
    cases: lines.length,
  };
}
