// Python's typing rule (PEP 484): a TypeVar, ParamSpec or TypeVarTuple is named by a string equal
// to the name it is assigned to, `T = TypeVar("T")`, and type checkers reject any other. So after
// `T = TypeVar(` the argument is known; the model, seeing few such lines, often writes another.

const ASSIGNED = /^\s*([A-Za-z_]\w*)\s*(?::[^=]*)?=\s*(?:[A-Za-z_]\w*\.)*(?:TypeVar|ParamSpec|TypeVarTuple)\((?:(["'])(\w*))?$/;

/**
 * The rest of the line after `T = TypeVar(` (or `typing.TypeVar("`, `TypeVar('T`): the name
 * in the quotes the file uses most, and the closing parenthesis; undefined elsewhere, and where what
 * is typed of the name is not its start.
 */
export function typeVarName(prefix: string): string | undefined {
  const line = prefix.slice(prefix.lastIndexOf("\n") + 1);
  const match = ASSIGNED.exec(line);
  if (!match) return undefined;
  const [, name, quote, typed] = match as unknown as [string, string, string | undefined, string | undefined];
  if (quote === undefined) {
    const q = fileQuote(prefix);
    return `${q}${name}${q})`;
  }
  return name.startsWith(typed!) ? `${name.slice(typed!.length)}${quote})` : undefined;
}

/** The string quote the file writes most: double where it writes none or as many of each. */
function fileQuote(text: string): string {
  return text.split("'").length > text.split('"').length ? "'" : '"';
}
