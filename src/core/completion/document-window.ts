/** About how much document text an editor adapter hands the pipeline before the cursor (it budgets further). */
export const maxPrefixChars = 16_000;
/** ... and after it. */
export const maxSuffixChars = 4_000;
/** The handed-over prefix starts on this grid of offsets, so it stays put while the user types. */
const prefixGrid = 4096;

/** Document offset at which the prefix handed to the pipeline starts, for a cursor at `cursorOffset`. */
export function prefixStartOffset(cursorOffset: number): number {
  return Math.floor(Math.max(0, cursorOffset - maxPrefixChars) / prefixGrid) * prefixGrid;
}
