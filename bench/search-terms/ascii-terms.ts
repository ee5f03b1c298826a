// The workspace search tokenizer before commit 0b7413f (ASCII letters only), kept as the
// baseline of bench/search-terms.bench.ts. Copied from src/core/context/identifiers.ts at 0b7413f^.
/** Words too common in code or questions to tell files apart. */
const stopWords = new Set(
  (
    "the a an and or not of to in on at is are was be it this that for with as by from if else then " +
    "do does how why what where when which who can could should would will my our your we you i me " +
    "function return const let var new class import export default true false null undefined void " +
    "def self none pass public private static async await type interface string number boolean any " +
    "get set use used using code file line lines there here into out up about"
  ).split(" "),
);

const identifierPattern = /[A-Za-z_$][A-Za-z0-9_$]*/g;

/** The lower-case parts of one identifier: `parseHTTPResponse2` -> parse, http, response2. */
function identifierParts(identifier: string): string[] {
  return identifier
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[\s_$]+/)
    .map((p) => p.toLowerCase())
    .filter((p) => p.length > 1);
}

/**
 * The search terms of a text: each identifier whole (lower-cased) and its parts, without stop
 * words. Repeats are kept: term frequency matters to the ranking.
 */
export function asciiSearchTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(identifierPattern)) {
    const word = match[0];
    if (word.length < 2 || word.length > 64) continue;
    const whole = word.toLowerCase();
    const parts = identifierParts(word);
    if (!stopWords.has(whole)) terms.push(whole);
    if (parts.length > 1) for (const p of parts) if (!stopWords.has(p)) terms.push(p);
  }
  return terms;
}
