/**
 * Cutting text between the two halves of a surrogate pair (an emoji) leaves a lone surrogate,
 * which is not valid Unicode: llama.cpp's server rejects the whole request as bad JSON. Cuts move
 * by one code unit so the pair stays whole or goes whole.
 */
const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Whether a cut of `text` at `at` falls between the two halves of a pair. */
const splitsPair = (text: string, at: number) => at > 0 && at < text.length && isHigh(text.charCodeAt(at - 1)) && isLow(text.charCodeAt(at));

/** `at` as the end of a slice of `text`, moved back before a pair it would split. */
export function safeEnd(text: string, at: number): number {
  return splitsPair(text, at) ? at - 1 : at;
}

/** `at` as the start of a slice of `text`, moved on past a pair it would split. */
export function safeStart(text: string, at: number): number {
  return splitsPair(text, at) ? at + 1 : at;
}

/** `text` cut to at most `max` code units, a pair at the cut going whole. */
export function cutAt(text: string, max: number): string {
  return text.length > max ? text.slice(0, safeEnd(text, max)) : text;
}

/** Code units to drop at each end of a text cut from a document: the half pairs left there. */
export function splitHalves(text: string): { readonly start: number; readonly end: number } {
  const start = text.length > 0 && isLow(text.charCodeAt(0)) ? 1 : 0;
  const end = text.length > start && isHigh(text.charCodeAt(text.length - 1)) ? 1 : 0;
  return { start, end };
}
