/**
 * Percent-encodes what would end or confuse a Markdown link destination (spaces, parentheses,
 * `<>`, `%`, and `#` or `?`, which would read as the link's fragment or query). Other characters
 * (accents, CJK) stay: Markdown encodes them itself.
 */
export function encodeLinkPath(path: string): string {
  return path
    .split("/")
    // As UTF-8 bytes: a no-break space is %C2%A0 (its code %A0 alone is no character and does not decode).
    .map((part) => part.replace(/[%\s()<>#?]/g, (ch) => (ch === "(" ? "%28" : ch === ")" ? "%29" : encodeURIComponent(ch))))
    .join("/");
}
