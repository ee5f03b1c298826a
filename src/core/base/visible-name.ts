/**
 * Whether a name (an API key's) reads as what it is wherever it is shown: a listing, a table
 * cell, a terminal line. No control characters or line breaks; no bidirectional controls, which
 * reorder what follows them ("abc\u202Egnp.exe" shows as "abcexe.png", and in a terminal the rest
 * of the line turns around too); and at least one letter, digit, mark or symbol, so a name of
 * only zero-width or blank characters cannot look like none.
 */
export function isVisibleName(name: string): boolean {
  return !/[\p{Cc}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u.test(name) && /[\p{L}\p{N}\p{P}\p{S}]/u.test(name);
}

/** What isVisibleName asks, said to whoever gave the name. */
export const KEY_NAME_RULE = "a key's name must be visible text, without control, invisible or text-direction characters";
