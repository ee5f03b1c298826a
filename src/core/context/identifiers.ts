/**
 * Words for lexical search over code: identifiers and their parts, so that a question about
 * "price rounding" meets `roundPrice` and `PRICE_ROUNDING`.
 */

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

// Letters of any script: a question about the Größe or the скидка meets the comments and names
// that use the word (ASCII letters alone made Größe the terms gr and e, and скидка none).
const identifierPattern = /[\p{L}_$][\p{L}\p{M}\p{N}_$]*/gu;

// The same patterns for ASCII alone, taken for ASCII text and words (most code), where they match
// the same: the Unicode ones made tokenizing src/ 1.6x as slow as before 0b7413f, 1.1x with these
// (bench/search-terms.bench.ts).
const ascii = /^[\x00-\x7f]*$/;
const asciiIdentifierPattern = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const lowerThenUpper = { any: /([\p{Ll}\p{N}])(\p{Lu})/gu, ascii: /([a-z0-9])([A-Z])/g };
const upperRunThenWord = { any: /(\p{Lu}+)(\p{Lu}\p{Ll})/gu, ascii: /([A-Z]+)([A-Z][a-z])/g };

/** The lower-case parts of one identifier: `parseHTTPResponse2` -> parse, http, response2. */
export function identifierParts(identifier: string): string[] {
  return parts(identifier, ascii.test(identifier));
}

function parts(identifier: string, isAscii: boolean): string[] {
  const script = isAscii ? "ascii" : "any";
  return identifier
    .replace(lowerThenUpper[script], "$1 $2")
    .replace(upperRunThenWord[script], "$1 $2")
    .split(/[\s_$]+/)
    .map((p) => p.toLowerCase())
    .filter((p) => p.length > 1);
}

/**
 * The search terms of a text: each identifier whole (lower-cased) and its parts, without stop
 * words. Repeats are kept: term frequency matters to the ranking.
 */
export function searchTerms(text: string): string[] {
  const terms: string[] = [];
  // Composed: é typed as one character meets é stored as e + U+0301 (ASCII is composed already).
  const asciiText = ascii.test(text);
  for (const match of (asciiText ? text : text.normalize("NFC")).matchAll(asciiText ? asciiIdentifierPattern : identifierPattern)) {
    const word = match[0];
    if (word.length < 2 || word.length > 64) continue;
    const whole = word.toLowerCase();
    const split = parts(word, asciiText || ascii.test(word));
    if (!stopWords.has(whole)) terms.push(whole);
    if (split.length > 1) for (const p of split) if (!stopWords.has(p)) terms.push(p);
  }
  return terms;
}
