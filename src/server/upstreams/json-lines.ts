// Parses JSON and remembers the line of every value, so a config file's mistakes can be reported
// where they are ("line 7: upstreams[1].url ...") instead of as a path the reader has to find.

export class JsonLineError extends Error {
  constructor(readonly line: number, reason: string) {
    super(`line ${line}: ${reason}`);
  }
}

export interface JsonWithLines {
  value: unknown;
  /** The line (1-based) where the value at `path` starts; the nearest enclosing value's if absent. */
  lineOf(path: readonly (string | number)[]): number;
}

export function parseJsonWithLines(text: string): JsonWithLines {
  const lines = new Map<string, number>();
  let at = 0;
  const lineAt = (offset: number) => text.slice(0, offset).split("\n").length;
  const fail = (reason: string): never => {
    throw new JsonLineError(lineAt(at), reason);
  };
  const skip = () => {
    while (at < text.length && /\s/.test(text[at]!)) at++;
  };
  const literal = (): unknown => {
    const match = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null|"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")/.exec(text.slice(at, at + 100_000));
    if (!match) return fail(at >= text.length ? "unexpected end of file" : `unexpected ${JSON.stringify(text[at])}`);
    at += match[0].length;
    return JSON.parse(match[0]) as unknown;
  };
  const value = (path: (string | number)[]): unknown => {
    skip();
    lines.set(JSON.stringify(path), lineAt(at));
    if (text[at] === "{") {
      at++;
      const object: Record<string, unknown> = {};
      skip();
      if (text[at] === "}") return at++, object;
      for (;;) {
        skip();
        if (text[at] !== '"') fail("expected a quoted property name");
        const key = literal() as string;
        skip();
        if (text[at] !== ":") fail(`expected ':' after "${key}"`);
        at++;
        object[key] = value([...path, key]);
        skip();
        if (text[at] === "}") return at++, object;
        if (text[at] !== ",") fail("expected ',' or '}'");
        at++;
      }
    }
    if (text[at] === "[") {
      at++;
      const array: unknown[] = [];
      skip();
      if (text[at] === "]") return at++, array;
      for (;;) {
        array.push(value([...path, array.length]));
        skip();
        if (text[at] === "]") return at++, array;
        if (text[at] !== ",") fail("expected ',' or ']'");
        at++;
      }
    }
    return literal();
  };
  const parsed = value([]);
  skip();
  if (at < text.length) fail("unexpected text after the end of the JSON value");
  return {
    value: parsed,
    lineOf(path) {
      for (let n = path.length; n >= 0; n--) {
        const line = lines.get(JSON.stringify(path.slice(0, n)));
        if (line !== undefined) return line;
      }
      return 1;
    },
  };
}
