/**
 * The end of a prefix, remembered compactly, to recognise later prefixes that extend it by what the
 * user typed since: "this prefix is that one plus k more characters".
 */
export interface PrefixAnchor {
  readonly tail: string;
  /** The tail is the whole prefix, so nothing may precede it. */
  readonly whole: boolean;
}

export function anchorOf(prefix: string, tailChars: number): PrefixAnchor {
  return { tail: prefix.slice(-tailChars), whole: prefix.length <= tailChars };
}

/** True when `prefix` is the anchored prefix followed by exactly `k` more characters. */
export function extendsAnchor(anchor: PrefixAnchor, prefix: string, k: number): boolean {
  const at = prefix.length - k - anchor.tail.length;
  if (at < 0 || (anchor.whole && at !== 0)) return false;
  return prefix.startsWith(anchor.tail, at);
}
