/** Most alternatives a glob's braces expand to; past it, the rest are left out. */
const maxAlternatives = 256;

/**
 * `{a,b}` expanded into one glob per alternative, as VS Code's glob reads them: an alternative may
 * hold slashes and `**`, and groups nest. A brace left open is no group (the glob as written).
 */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf("{");
  const close = open < 0 ? -1 : closingBrace(glob, open);
  if (close < 0) return [glob];
  const [head, tail] = [glob.slice(0, open), glob.slice(close + 1)];
  const out: string[] = [];
  for (const alternative of splitAlternatives(glob.slice(open + 1, close))) {
    for (const expanded of expandBraces(head + alternative + tail)) if (out.length < maxAlternatives) out.push(expanded);
  }
  return out;
}

function closingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

function splitAlternatives(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === "{") depth++;
    else if (body[i] === "}") depth--;
    else if (body[i] === "," && depth === 0) {
      parts.push(body.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(body.slice(start));
  return parts;
}
