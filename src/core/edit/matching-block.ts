/**
 * Where a code block from the chat belongs in a file when nothing is selected: the lines that start
 * and end like it (ignoring indentation), the pair whose length is closest to the block's.
 */
export function matchingBlock(documentLines: readonly string[], code: readonly string[]): { startLine: number; endLine: number } | undefined {
  const lines = code.filter((line, i) => line.trim() !== "" || (i > 0 && i < code.length - 1));
  const first = lines.find((line) => line.trim() !== "")?.trim();
  const last = lines.findLast((line) => line.trim() !== "")?.trim();
  if (first === undefined || last === undefined) return undefined;
  let best: { startLine: number; endLine: number; off: number } | undefined;
  for (let start = 0; start < documentLines.length; start++) {
    if (documentLines[start]!.trim() !== first) continue;
    for (let end = start; end < documentLines.length; end++) {
      if (documentLines[end]!.trim() !== last) continue;
      const off = Math.abs(end - start + 1 - lines.length);
      if (best === undefined || off < best.off) best = { startLine: start, endLine: end, off };
    }
  }
  return best && { startLine: best.startLine, endLine: best.endLine };
}
