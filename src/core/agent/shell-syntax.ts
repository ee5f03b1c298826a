/**
 * The shell parser (mvdan/sh, POSIX and bash syntax, compiled to JavaScript) and the few helpers
 * the command policy needs on its syntax tree: source text of a node, and the literal value of a word.
 */
import { expandBraces } from "../base/glob-braces";
import { stackTraceLimitBefore } from "./stack-trace-limit";
import sh from "mvdan-sh";

Error.stackTraceLimit = stackTraceLimitBefore;

export type ShellNode = sh.Node;
export type ShellStmt = sh.Stmt;

export const nodeType = (node: ShellNode): string => sh.syntax.NodeType(node);

/** Visits `node` and everything under it; `visit` returns false to skip a node's children. */
export function walk(node: ShellNode, visit: (node: ShellNode) => boolean): void {
  // Walk also calls back with null after each node's children.
  sh.syntax.Walk(node, (n) => {
    if (!n) return true;
    const deeper = visit(n);
    // The parser's Walk leaves out a slice's offset and length (`${HOME:$(cmd)}` runs cmd).
    const slice = deeper && nodeType(n) === "ParamExp" ? (n as sh.ParamExp).Slice : null;
    for (const part of [slice?.Offset, slice?.Length]) if (part) walk(part, visit);
    return deeper;
  });
}

/** A parsed script and its text, addressed by the parser's UTF-8 byte offsets. */
export class ShellSource {
  private readonly bytes: Uint8Array;

  private constructor(
    readonly code: string,
    readonly statements: readonly ShellStmt[],
    bytes: Uint8Array,
  ) {
    this.bytes = bytes;
  }

  static parse(code: string): ShellSource | { readonly error: string } {
    try {
      const file = sh.syntax.NewParser().Parse(code, "");
      return new ShellSource(code, present(file.Stmts), new TextEncoder().encode(code));
    } catch (error) {
      return { error: parseError(error) };
    }
  }

  /** The text from `from`'s start to `to`'s end (default: `from`'s end). */
  text(from: ShellNode, to: ShellNode = from): string {
    return new TextDecoder().decode(this.bytes.subarray(from.Pos().Offset(), to.End().Offset()));
  }

  /** The operator text at a position (`|`, `&&`, `>>`, `<<-`, `<<<`…). */
  operatorAt(position: sh.Pos): string {
    const start = position.Offset();
    let end = start;
    while (end < this.bytes.length && end - start < 3 && "<>&|".includes(String.fromCharCode(this.bytes[end]!))) end++;
    const operator = new TextDecoder().decode(this.bytes.subarray(start, end));
    // `-` belongs only to `<<-`; in `>-file` it starts the word.
    return operator === "<<" && this.bytes[end] === 0x2d ? "<<-" : operator;
  }
}

export function present<T>(items: readonly (T | null)[] | null | undefined): T[] {
  return (items ?? []).filter((item): item is T => item !== null && item !== undefined);
}

function parseError(error: unknown): string {
  // GopherJS throws the Go error value: its message comes from Error().
  if (typeof error === "object" && error !== null && typeof (error as { Error?: unknown }).Error === "function") return String((error as { Error(): string }).Error());
  return error instanceof Error ? error.message : String(error);
}

/**
 * The word as the shell passes it to the command, quotes and escapes removed, with plain
 * parameters kept as `$NAME` (unless `keepParameters` is false); undefined when it depends on
 * anything else (command substitution, `${x:-y}`, ANSI-C escapes…), so no rule mistakes a computed
 * word for a written one.
 */
export function wordValue(word: sh.Word | null | undefined, keepParameters = true): string | undefined {
  if (!word) return "";
  let value = "";
  for (const part of word.Parts) {
    const piece = partValue(part, false, keepParameters);
    if (piece === undefined) return undefined;
    value += piece;
  }
  return value;
}

/**
 * Why a shell the user may run commands with (`$SHELL`) reads the word otherwise than bash does,
 * in a way that can run a command; undefined when none does. zsh reads an unquoted `*(…)` (bash's
 * extended glob) as glob qualifiers, and `*(e:'cmd':)` runs cmd. fish reads `\'` in single quotes
 * as an escaped quote, so `'a\' '; cmd; #'` is bash's two strings but fish's string, cmd and a comment.
 */
export function otherShellReading(word: sh.Word | null | undefined): string | undefined {
  const parts = word?.Parts ?? [];
  if (parts.some((part) => nodeType(part) === "ExtGlob")) return "it has a pattern with parentheses (`*(…)`), which zsh reads as glob qualifiers that can run commands";
  if (parts.every((part) => nodeType(part) === "Lit")) return undefined;
  let fish = false;
  // Substitutions are commands of their own, judged as such.
  walk(word!, (node) => {
    const type = nodeType(node);
    if (type === "SglQuoted" && !(node as sh.SglQuoted).Dollar && /(^|[^\\])(\\\\)*\\$/.test((node as sh.SglQuoted).Value)) fish = true;
    return !fish && type !== "CmdSubst" && type !== "ProcSubst";
  });
  return fish ? "it has a single-quoted string ending in a backslash, which fish reads as an escaped quote, running what follows" : undefined;
}

const arithmeticNodes = new Set(["ArithmExp", "ArithmCmd", "LetClause", "TestClause"]);
export const quotedCodeReason = "it has quoted text that bash evaluates as arithmetic, running a command written in it (`${a['$(cmd)']}`)";

/**
 * Whether quoted text under `node` holds a substitution that bash runs all the same: it evaluates
 * `$(( 'a[$(cmd)]' ))`, `${a['$(cmd)']}`, `${x:'$(cmd)'}` and `[[ 'a[$(cmd)]' -eq 0 ]]` as
 * arithmetic, whose array subscripts expand `$(cmd)`.
 */
export function runsQuotedCode(node: ShellNode | null | undefined): boolean {
  if (!node) return false;
  let found = false;
  walk(node, (n) => {
    if (arithmeticNodes.has(nodeType(n))) found ||= quotedSubstitution(n);
    else if (nodeType(n) === "ParamExp") {
      const p = n as sh.ParamExp;
      found ||= [p.Index, p.Slice?.Offset, p.Slice?.Length].some(quotedSubstitution);
    }
    return !found;
  });
  return found;
}

export const evaluatedVariableReason = "it evaluates as arithmetic a variable it sets to text that may hold a command (`for x in 'a[$(cmd)]'; do ls $((x)); done`), whose array subscript bash runs";

/** The operators of `${x=…}` and `${x:=…}`, which set x, as the parser numbers them. */
const assigningOperators = new Set(["${x=y}", "${x:=y}"].map((text) => {
  let op = -1;
  walk(sh.syntax.NewParser().Parse(text, ""), (n) => ((op = (nodeType(n) === "ParamExp" && (n as sh.ParamExp).Exp?.Op) || op), true));
  return op;
}));

/**
 * Whether the script evaluates a variable it sets itself to text that is not plain, as
 * arithmetic or through `${!x}`: bash expands an array subscript in such a value, so
 * `for x in 'a[$(cmd)]'; do ls $((x)); done`, `ls ${x:='a[$(cmd)]'} $((x))` or a loop over file
 * names (`for x in *`, one named `a[$(cmd)]`) run cmd though no substitution is written.
 */
export function evaluatesSetVariable(statements: readonly ShellStmt[]): boolean {
  const names = new Set<string>();
  for (const stmt of statements) walk(stmt, (n) => {
    const type = nodeType(n);
    if (type === "WordIter" && present((n as sh.WordIter).Items).some((item) => !plainWord(item))) names.add((n as sh.WordIter).Name?.Value ?? "");
    if (type === "ParamExp") {
      const p = n as sh.ParamExp;
      if (p.Param && p.Exp && assigningOperators.has(p.Exp.Op) && !plainWord(p.Exp.Word)) names.add(p.Param.Value);
    }
    return true;
  });
  if (names.size === 0) return false;
  let found = false;
  const named = (node: ShellNode | null | undefined) => {
    if (node) walk(node, (n) => !(found ||= nodeType(n) === "Lit" && names.has((n as sh.Lit).Value)));
  };
  for (const stmt of statements) walk(stmt, (n) => {
    if (arithmeticNodes.has(nodeType(n))) named(n);
    else if (nodeType(n) === "ParamExp") {
      const p = n as sh.ParamExp;
      if (p.Excl) named(p.Param);
      [p.Index, p.Slice?.Offset, p.Slice?.Length].forEach(named);
    }
    return !found;
  });
  return found;
}

/** A word that is the same text wherever it is read: no parameter, substitution or glob. */
function plainWord(word: sh.Word | null | undefined): boolean {
  const value = wordValue(word, false);
  return value !== undefined && !/[$`*?[]/.test(value);
}

/** Whether a single-quoted string under `node` has `$(` or a backtick in it. */
function quotedSubstitution(node: ShellNode | null | undefined): boolean {
  let found = false;
  if (node) walk(node, (n) => !(found ||= nodeType(n) === "SglQuoted" && /\$\(|`/.test((n as sh.SglQuoted).Value)));
  return found;
}

/** Most words one word's braces may expand to before it counts as computed. */
const maxBraceWords = 256;
/** Unicode's private use area: each character stands for a quoted, escaped or expanded piece while braces expand. */
const standInFirst = 0xe000;
const standInCount = 0x1900;

/**
 * The words the shell makes of `word` by brace expansion (`{--output=x,a}` is two words,
 * `--output=x` and `a`), each as `wordValue` reads it; one for a word without such braces. Only
 * unquoted, unescaped braces with a comma expand; a sequence (`-{n..o}`) is one computed word.
 * Without `keepParameters`, a word that starts with an unquoted glob (`*`, `?`, `[`) is computed
 * too: it expands to the names of files, and a file may be named `--pre=sh`. So is one with an
 * unquoted escape that fish (as `$SHELL`) reads otherwise (`\x2d-output=…` is `--output=…`);
 * with `keepParameters` it is read as bash reads it (`\rm` is rm), for rules and deny rules.
 */
export function wordValues(word: sh.Word, keepParameters = true): (string | undefined)[] {
  const pieces: (string | undefined)[] = [];
  let masked = "";
  let fish = false;
  const standIn = (value: string | undefined) => {
    pieces.push(value);
    masked += String.fromCharCode(standInFirst + Math.min(pieces.length - 1, standInCount));
  };
  for (const part of word.Parts) {
    if (nodeType(part) !== "Lit") {
      standIn(partValue(part, false, keepParameters));
      continue;
    }
    const raw = (part as sh.Lit).Value;
    for (let i = 0; i < raw.length; i++) {
      // fish reads `\x2d` as `-` (bash as `x2d`), and `\n`, `\u…`, `\0…` as characters of their own: the word is computed.
      if (raw[i] === "\\" && i + 1 < raw.length) {
        const escaped = raw[++i]!;
        fish ||= fishEscapes.test(escaped);
        standIn(escaped);
      } else if (isStandIn(raw.charCodeAt(i))) standIn(raw[i]);
      else masked += raw[i];
    }
  }
  if (pieces.length >= standInCount || /\{(-?\d+\.\.-?\d+|[A-Za-z]\.\.[A-Za-z])(\.\.-?\d+)?\}/.test(masked)) return [undefined];
  // Bash leaves `{}` and `{a}` as they are: only braces with a comma between them expand.
  const words = /\{.*,.*\}/s.test(masked) ? expandBraces(masked) : [masked];
  if (words.length >= maxBraceWords) return [undefined];
  return words.map((text) => {
    if (!keepParameters && (fish || /^[*?[]/.test(text))) return undefined;
    let value = "";
    for (const char of text) {
      const code = char.charCodeAt(0);
      if (!isStandIn(code)) value += char;
      else if (pieces[code - standInFirst] === undefined) return undefined;
      else value += pieces[code - standInFirst];
    }
    // With a parameter too, the word may start an option in fish though not in bash (`\x2d$f`).
    return fish && value.includes("$") ? undefined : value;
  });
}

/** Letters after an unquoted backslash that fish reads as an escape sequence (bash as the letter). */
const fishEscapes = /[abefnrtvxXuUc0-7]/;

const isStandIn = (code: number) => code >= standInFirst && code < standInFirst + standInCount;

function partValue(part: ShellNode, quoted: boolean, keepParameters: boolean): string | undefined {
  switch (nodeType(part)) {
    case "Lit": {
      const raw = (part as sh.Lit).Value;
      return quoted ? raw.replace(/\\([$`"\\])/g, "$1") : raw.replace(/\\(.)/gs, "$1");
    }
    case "SglQuoted": {
      const single = part as sh.SglQuoted;
      return single.Dollar && single.Value.includes("\\") ? undefined : single.Value;
    }
    case "DblQuoted": {
      let value = "";
      for (const inner of (part as sh.DblQuoted).Parts) {
        const piece = partValue(inner, true, keepParameters);
        if (piece === undefined) return undefined;
        value += piece;
      }
      return value;
    }
    case "ParamExp": {
      const p = part as sh.ParamExp;
      const plain = keepParameters && !p.Exp && !p.Length && !p.Index && !p.Repl && !p.Slice && !p.Excl && !p.Width && !p.Names && p.Param;
      return plain ? `$${p.Param!.Value}` : undefined;
    }
    default:
      return undefined;
  }
}
