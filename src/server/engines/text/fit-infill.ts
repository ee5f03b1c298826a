// Fits a fill-in-the-middle prompt into the tokens a model has room for: the text nearest the
// cursor matters most, so the suffix keeps its start and the prefix its end.
import type { Token } from "node-llama-cpp";

/** The prefix is cut in steps of this many tokens, so its start stays put while the user types. */
export const PREFIX_CUT_STEP = 128;

export function fitInfill(prefix: readonly Token[], suffix: readonly Token[], room: number): { prefix: Token[]; suffix: Token[] } {
  if (prefix.length + suffix.length <= room) return { prefix: [...prefix], suffix: [...suffix] };
  // The suffix gets a quarter of the room, or more where the prefix leaves more; the prefix the rest.
  const keptSuffix = suffix.slice(0, Math.max(0, Math.floor(room / 4), room - prefix.length));
  const prefixRoom = Math.max(0, room - keptSuffix.length);
  // Cutting exactly the overflow would move the prefix's first token with every keystroke, and a
  // moved start makes the server evaluate the whole prompt again; cutting in steps keeps it.
  const overflow = prefix.length - prefixRoom;
  const cut = overflow <= 0 ? 0 : Math.min(prefix.length, Math.ceil(overflow / PREFIX_CUT_STEP) * PREFIX_CUT_STEP);
  return { prefix: prefix.slice(cut), suffix: keptSuffix };
}
