// The per-project view of the completion-quality bench: a model that beats copying only on the
// kinds of code it was tuned on shows here, where one ratio over all cases hides it. One row per
// project and per language, in each split (settings are chosen on "dev"; "test" is the result).
import type { FimCase } from "./cases";
import { score } from "./metrics";
import { printTable } from "../typing/table";

export interface Answers {
  /** The server's answer (line candidates on). */
  server: readonly string[];
  /** The model alone (--no-line-candidates). */
  alone: readonly string[];
  /** The prefix-copy baseline. */
  copy: readonly string[];
}

const ratio = (a: number, b: number) => (b === 0 ? "-" : `${(a / b).toFixed(2)}x`);

export function printProjectTable(cases: readonly FimCase[], answers: Answers): void {
  const groups: [string, (c: FimCase) => boolean][] = [
    ...[...new Set(cases.map((c) => c.project))].map((p): [string, (c: FimCase) => boolean] => [p, (c) => c.project === p]),
    ...[...new Set(cases.map((c) => c.language))].map((l): [string, (c: FimCase) => boolean] => [`(${l})`, (c) => c.language === l]),
    ["(all)", () => true],
  ];
  const rows = groups.flatMap(([name, keep]) =>
    (["dev", "test"] as const).flatMap((split) => {
      const index = cases.flatMap((c, i) => (keep(c) && c.split === split ? [i] : []));
      if (index.length === 0) return [];
      const of = (s: readonly string[]) => score(index.map((i) => ({ expected: cases[i]!.expected, suggested: s[i]! })));
      const [server, alone, copy] = [of(answers.server), of(answers.alone), of(answers.copy)];
      return [[name, split, index.length, server.exactMatch * 100, alone.exactMatch * 100, copy.exactMatch * 100, ratio(server.exactMatch, copy.exactMatch), server.editSimilarity * 100, alone.editSimilarity * 100, copy.editSimilarity * 100, ratio(server.editSimilarity, copy.editSimilarity)]];
    }),
  );
  console.log("\nper project and language: exact match and edit similarity %, of the server's answer and the model alone as ghost text shows them (loops cut), and of the prefix copy; vs copy: the server's over the copy's");
  printTable(["project", "split", "cases", "exact", "alone", "copy", "vs copy", "edit sim", "alone", "copy", "vs copy"], rows, [0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0]);
}
