/**
 * The workspace code worth sending with a question that names none: chunks that share the
 * question's identifiers (and, with less weight, those around the cursor), found in the index.
 */
import { cutAt } from "../base/surrogates";
import type { Bm25Index, SearchHit } from "./bm25-index";

export interface RelevantOptions {
  /** Most snippets added. */
  readonly limit?: number;
  /** The file the question is asked from: its code near the cursor steers the search. */
  readonly activePath?: string;
  readonly activeText?: string;
}

/**
 * Longest line of the editor's text that steers the search: the draft's snippets are found again
 * at each pause in typing, and a minified bundle's line of megabytes took seconds to split into words.
 */
const maxActiveLineChars = 400;

/** A snippet scoring below this share of the best one is noise beside it. */
const relativeFloor = 0.35;

export function relevantSnippets(index: Bm25Index, question: string, options: RelevantOptions = {}): SearchHit[] {
  if (question.trim() === "") return [];
  // The question counts twice the editor's code: it says what the user is asking about.
  const active = (options.activeText ?? "").split("\n").map((line) => cutAt(line, maxActiveLineChars));
  const query = [question, question, ...active].join("\n");
  const exclude = new Set(options.activePath === undefined ? [] : [options.activePath]);
  const hits = index.search(query, { limit: options.limit ?? 3, perFile: 1, exclude });
  const best = hits[0]?.score ?? 0;
  return hits.filter((h) => h.score >= best * relativeFloor);
}
