// The non-model baseline a completion model has to beat: continue the line as the file did the
// last time the current line's last few characters occurred earlier in it.

/** Longest and shortest tail of the current line looked up earlier in the prefix. */
const LONGEST = 8;
const SHORTEST = 3;

export function prefixCopy(prefix: string): string {
  const line = prefix.slice(prefix.lastIndexOf("\n") + 1);
  for (let k = Math.min(LONGEST, line.length); k >= SHORTEST; k--) {
    const key = line.slice(-k);
    if (key.trim() === "") continue;
    const at = prefix.lastIndexOf(key, prefix.length - k - 1);
    if (at < 0) continue;
    const from = at + k;
    const end = prefix.indexOf("\n", from);
    return prefix.slice(from, end < 0 ? prefix.length : end);
  }
  return "";
}
