/**
 * A shell command line as the simple commands it runs ("units"), found with a real shell parser:
 * every command of `&&`, `||`, `;`, `|`, subshells, `{ …; }`, `if`/`for`/`while`/`case`,
 * `$( … )`, backticks and `<( … )`, the scripts given to `bash -c`, `eval` and shells fed a
 * here-document, and the commands run by wrappers (`env`, `xargs`, `sudo`, `timeout`, `find -exec`…).
 */
import type sh from "mvdan-sh";
import { evaluatedVariableReason, evaluatesSetVariable, nodeType, otherShellReading, present, quotedCodeReason, runsQuotedCode, ShellSource, walk, wordValue, wordValues, type ShellNode, type ShellStmt } from "./shell-syntax";
import { isShell, unwrapCommand } from "./command-wrappers";

/** One command as written at one level: `sudo env A=1 npm test` has three, outermost first. */
export interface CommandLayer {
  /** The command's text, with its redirections. */
  readonly text: string;
  /** `NAME=value` words before the command (undefined where computed). */
  readonly assigns: readonly (string | undefined)[];
  /** The command and its arguments (undefined where computed). */
  readonly words: readonly (string | undefined)[];
  /** The same, a word with a parameter in it undefined too: `$f` may expand to any option. */
  readonly literalWords: readonly (string | undefined)[];
}

export interface CommandUnit {
  /** Outermost first; the last is the command that finally runs. */
  readonly layers: readonly CommandLayer[];
  /** Its output goes to a file (`>`, `>>`, `&>`…; not /dev/null or another descriptor). */
  readonly writesFile: boolean;
  /** Why what it runs cannot be known from the text (a computed `bash -c` script…). */
  readonly opaque?: string;
  /** Units whose output it reads as arguments or input: `$( … )`, `<( … )` in its words or redirections. */
  readonly feeds: readonly CommandUnit[];
  /** The files its input comes from (`< .env`, on it or on a block around it), as written; undefined where computed. */
  readonly inputs?: readonly (string | undefined)[];
}

export interface CommandUnits {
  readonly units: readonly CommandUnit[];
  /** Each pipeline's stages, each stage's units in order. */
  readonly pipelines: readonly (readonly CommandUnit[])[][];
}

/** How deep scripts inside scripts (`bash -c "bash -c …"`) are followed. */
const maxDepth = 6;
const harmlessTargets = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"]);
const outputOperators = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);
const heredocOperators = new Set(["<<", "<<-", "<<<"]);
const inputOperators = new Set(["<", "<>"]);

export function commandUnits(command: string): CommandUnits | { readonly error: string } {
  const source = ShellSource.parse(command);
  if ("error" in source) return source;
  const collector = new Collector();
  collector.script(source, [], false, 0);
  return { units: collector.units, pipelines: collector.pipelines };
}

interface Context {
  readonly source: ShellSource;
  /** Layers of the wrappers this script runs inside (`bash -c` inside `sudo`…). */
  readonly outer: readonly CommandLayer[];
  readonly writes: boolean;
  readonly depth: number;
}

/** What a simple command brings besides its words. */
interface CallParts {
  /** Its redirections' text, appended to each layer's text. */
  readonly suffix: string;
  readonly redirects: readonly sh.Redirect[];
  readonly feeds: readonly CommandUnit[];
  readonly context: Context;
}

class Collector {
  readonly units: CommandUnit[] = [];
  readonly pipelines: (readonly CommandUnit[])[][] = [];

  script(source: ShellSource, outer: readonly CommandLayer[], writes: boolean, depth: number): void {
    const first = this.units.length;
    this.statements(source.statements, { source, outer, writes, depth });
    if (evaluatesSetVariable(source.statements)) this.markOpaque(first, evaluatedVariableReason);
  }

  private statements(stmts: readonly ShellStmt[], context: Context): void {
    for (const stmt of stmts) this.statement(stmt, context);
  }

  private statement(stmt: ShellStmt, context: Context): void {
    const first = this.units.length;
    this.statementUnits(stmt, context);
    const redirects = present(stmt.Redirs);
    this.readOtherwise(first, redirects.map((r) => r.Word));
    // `git log --stdin < .env` prints the file's first line in its error.
    const inputs = redirects.filter((r) => inputOperators.has(context.source.operatorAt(r.OpPos))).map((r) => wordValue(r.Word));
    if (inputs.length > 0) for (let i = first; i < this.units.length; i++) this.units[i] = { ...this.units[i]!, inputs: [...(this.units[i]!.inputs ?? []), ...inputs] };
  }

  private statementUnits(stmt: ShellStmt, context: Context): void {
    const redirects = present(stmt.Redirs);
    const writes = context.writes || redirects.some((r) => writesFile(r, context.source));
    const inner = { ...context, writes };
    const start = this.units.length;
    for (const redirect of redirects) if (wordValue(redirect.Word) === undefined || (redirect.Hdoc && wordValue(redirect.Hdoc) === undefined)) this.nested(redirect, inner);
    const feeds = this.units.slice(start);
    const cmd = stmt.Cmd;
    if (!cmd) return;
    switch (nodeType(cmd)) {
      case "CallExpr":
        return this.call(cmd as sh.CallExpr, redirects, feeds, inner);
      case "DeclClause":
        return this.declaration(cmd as sh.DeclClause, redirects, feeds, inner);
      case "BinaryCmd":
        return this.binary(cmd as sh.BinaryCmd, inner);
      case "Subshell":
      case "Block":
        return this.statements(present((cmd as sh.Block).Stmts), inner);
      case "IfClause":
        return this.ifClause(cmd as sh.IfClause, inner);
      case "WhileClause": {
        const loop = cmd as sh.WhileClause;
        return this.statements([...present(loop.Cond), ...present(loop.Do)], inner);
      }
      case "ForClause": {
        const loop = cmd as sh.ForClause;
        const first = this.units.length;
        this.nested(loop.Loop, inner);
        this.statements(present(loop.Do), inner);
        if (loop.Loop && nodeType(loop.Loop) === "WordIter") this.readOtherwise(first, present((loop.Loop as sh.WordIter).Items));
        return;
      }
      case "CaseClause": {
        const clause = cmd as sh.CaseClause;
        if (clause.Word) this.nested(clause.Word, inner);
        for (const item of present(clause.Items)) {
          for (const pattern of present(item.Patterns)) this.nested(pattern, inner);
          this.statements(present(item.Stmts), inner);
        }
        return;
      }
      case "FuncDecl": {
        const body = (cmd as sh.FuncDecl).Body;
        return body ? this.statement(body, inner) : undefined;
      }
      case "TimeClause":
      case "CoprocClause": {
        const body = (cmd as sh.TimeClause).Stmt;
        return body ? this.statement(body, inner) : undefined;
      }
      // Tests and arithmetic run nothing themselves; substitutions inside them do.
      case "TestClause":
      case "ArithmCmd":
      case "LetClause":
        this.nested(cmd, inner);
        if (runsQuotedCode(cmd)) this.add({ layers: [...context.outer, layerOf(context.source.text(cmd), [], [])], writesFile: writes, opaque: quotedCodeReason, feeds });
        return;
      default:
        this.nested(cmd, inner);
        this.add({ layers: [...context.outer, layerOf(context.source.text(cmd), [], [])], writesFile: writes, opaque: `the shell construct ${nodeType(cmd)} is not understood`, feeds });
    }
  }

  private ifClause(clause: sh.IfClause, context: Context): void {
    for (let branch: sh.IfClause | null = clause; branch; branch = branch.Else) this.statements([...present(branch.Cond), ...present(branch.Then)], context);
  }

  private binary(cmd: sh.BinaryCmd, context: Context): void {
    const operator = context.source.operatorAt(cmd.OpPos);
    if (operator !== "|" && operator !== "|&") {
      if (cmd.X) this.statement(cmd.X, context);
      if (cmd.Y) this.statement(cmd.Y, context);
      return;
    }
    // `a | b | c` nests as ((a | b) | c): gather the stages of the whole pipeline once.
    const stages: ShellStmt[] = [];
    const gather = (stmt: ShellStmt | null) => {
      if (!stmt) return;
      const inner = stmt.Cmd;
      if (inner && nodeType(inner) === "BinaryCmd" && present(stmt.Redirs).length === 0 && ["|", "|&"].includes(context.source.operatorAt((inner as sh.BinaryCmd).OpPos))) {
        gather((inner as sh.BinaryCmd).X);
        gather((inner as sh.BinaryCmd).Y);
      } else stages.push(stmt);
    };
    gather(cmd.X);
    gather(cmd.Y);
    const pipeline: CommandUnit[][] = [];
    for (const stage of stages) {
      const start = this.units.length;
      this.statement(stage, context);
      pipeline.push(this.units.slice(start));
    }
    this.pipelines.push(pipeline);
  }

  private call(call: sh.CallExpr, redirects: readonly sh.Redirect[], redirectFeeds: readonly CommandUnit[], context: Context): void {
    const start = this.units.length;
    const assignNodes = present(call.Assigns);
    const assigns = assignNodes.map(assignValue);
    const written = present(call.Args);
    // `git diff {--output=x,a}` runs `git diff --output=x a`: each word braces make is judged, and stands with its syntax.
    const values = written.map((arg) => wordValues(arg));
    const literalValues = written.map((arg) => wordValues(arg, false));
    const args = written.flatMap((arg, i) => values[i]!.map(() => arg));
    const words = values.flat();
    const literalWords = literalValues.flat();
    // A word with a value has no substitution in it: only the others are searched (walking is slow).
    assignNodes.forEach((assign, i) => assigns[i] === undefined && this.nested(assign, context));
    written.forEach((arg, i) => values[i]!.includes(undefined) && this.nested(arg, context));
    const feeds = [...redirectFeeds, ...this.units.slice(start)];
    const suffix = redirects.map((r) => ` ${context.source.text(r)}`).join("");
    const first = this.units.length;
    this.wrapped([...context.outer, layerOf(context.source.text(call) + suffix, assigns, words, literalWords)], args, { suffix, redirects, feeds, context });
    this.readOtherwise(first, written);
  }

  /**
   * The units from `first` on cannot be approved automatically when zsh or fish may read one of
   * `words` otherwise, or bash runs quoted text in one.
   */
  private readOtherwise(first: number, words: readonly (sh.Word | null)[]): void {
    const opaque = words.map((word) => otherShellReading(word) ?? (runsQuotedCode(word) ? quotedCodeReason : undefined)).find((why) => why !== undefined);
    if (opaque) this.markOpaque(first, opaque);
  }

  /** The units from `first` on cannot be approved automatically, for `why` unless they have a reason already. */
  private markOpaque(first: number, why: string): void {
    for (let i = first; i < this.units.length; i++) this.units[i] = { ...this.units[i]!, opaque: this.units[i]!.opaque ?? why };
  }

  /**
   * Adds the unit for the last layer, following wrappers (`env`, `sudo`, `bash -c`…) to the
   * command they run. `args` are the syntax of the last layer's words.
   */
  private wrapped(layers: readonly CommandLayer[], args: readonly sh.Word[], call: CallParts): void {
    const { context, feeds } = call;
    const last = layers.at(-1)!;
    const unwrapped = unwrapCommand(last.words);
    const add = (extra: Partial<CommandUnit> = {}) => this.add({ layers, writesFile: context.writes, feeds, ...extra });
    const inner = (from: number, start: number, end: number, assigns: readonly (string | undefined)[], suffix: string) =>
      layerOf(context.source.text(args[from]!, args[end - 1]!) + suffix, assigns, last.words.slice(start, end), last.literalWords.slice(start, end));
    switch (unwrapped.kind) {
      case "plain":
        if (!this.heredocScript(layers, call)) add();
        return;
      case "opaque":
        return add({ opaque: unwrapped.reason });
      case "runs": {
        const { from, start, assigns, input } = unwrapped;
        const run = inner(from, start, args.length, assigns, call.suffix);
        if (!input) return this.wrapped([...layers, run], args.slice(start), call);
        // `git log --format=--output=~/.bashrc | xargs git diff`: a word read from the input may be any option.
        const read = { ...run, words: [...run.words, undefined], literalWords: [...run.literalWords, undefined] };
        return this.wrapped([...layers, read], [...args.slice(start), args.at(-1)!], call);
      }
      case "also":
        add();
        for (const { start, end } of unwrapped.commands) this.wrapped([...layers, inner(start, start, end, [], "")], args.slice(start, end), { ...call, suffix: "", redirects: [] });
        return;
      case "script": {
        // Parameters in the outer words expand before the inner shell parses: `bash -c "$CMD"` is computed.
        const parts = last.literalWords.slice(unwrapped.from, unwrapped.to);
        const script = parts.some((p) => p === undefined) ? undefined : parts.join(" ").slice(unwrapped.skip ?? 0);
        if (script === undefined) return add({ opaque: `the script given to ${last.words[0]} is computed, so its commands cannot be checked` });
        if (!this.innerScript(layers, script, call)) add({ opaque: `the script given to ${last.words[0]} does not parse` });
        return;
      }
    }
  }

  /** A shell reading a literal here-document or here-string runs it as a script. */
  private heredocScript(layers: readonly CommandLayer[], call: CallParts): boolean {
    const { context, feeds } = call;
    const name = layers.at(-1)!.words[0];
    if (name === undefined || !isShell(name)) return false;
    const heredoc = call.redirects.find((r) => heredocOperators.has(context.source.operatorAt(r.OpPos)));
    if (!heredoc) return false;
    const script = wordValue(heredoc.Hdoc ?? heredoc.Word, false);
    if (script === undefined) {
      this.add({ layers, writesFile: context.writes, feeds, opaque: "the script fed to the shell is computed" });
      return true;
    }
    return this.innerScript(layers, script, call);
  }

  private innerScript(layers: readonly CommandLayer[], script: string, { context, feeds }: CallParts): boolean {
    if (context.depth >= maxDepth) {
      this.add({ layers, writesFile: context.writes, feeds, opaque: "scripts are nested too deeply to check" });
      return true;
    }
    const inner = ShellSource.parse(script);
    if ("error" in inner) return false;
    this.script(inner, layers, context.writes, context.depth + 1);
    return true;
  }

  private declaration(decl: sh.DeclClause, redirects: readonly sh.Redirect[], feeds: readonly CommandUnit[], context: Context): void {
    const start = this.units.length;
    this.nested(decl, context);
    const suffix = redirects.map((r) => ` ${context.source.text(r)}`).join("");
    const words = [decl.Variant?.Value, ...present(decl.Args).map(assignValue)];
    this.add({ layers: [...context.outer, layerOf(context.source.text(decl) + suffix, [], words)], writesFile: context.writes, feeds: [...feeds, ...this.units.slice(start)] });
  }

  /** The commands of every `$( … )`, backtick and `<( … )` under a node. */
  private nested(node: ShellNode, context: Context): void {
    walk(node, (n) => {
      const type = nodeType(n);
      if (type !== "CmdSubst" && type !== "ProcSubst") return true;
      this.statements(present((n as sh.CmdSubst).Stmts), { ...context, writes: false });
      return false;
    });
  }

  private add(unit: CommandUnit): void {
    this.units.push(unit);
  }
}

function layerOf(text: string, assigns: readonly (string | undefined)[], words: readonly (string | undefined)[], literalWords = words): CommandLayer {
  return { text, assigns, words, literalWords };
}

function assignValue(assign: sh.Assign): string | undefined {
  // Naked: a word without `=`, as in `export NAME` or `declare -x`.
  if (assign.Naked) return assign.Name ? assign.Name.Value : wordValue(assign.Value);
  if (assign.Array || assign.Index) return undefined;
  const value = wordValue(assign.Value);
  return value === undefined || !assign.Name ? undefined : `${assign.Name.Value}${assign.Append ? "+=" : "="}${value}`;
}

function writesFile(redirect: sh.Redirect, source: ShellSource): boolean {
  const operator = source.operatorAt(redirect.OpPos);
  const target = wordValue(redirect.Word);
  if (operator === ">&") return target === undefined || !/^(\d+|-)$/.test(target);
  return outputOperators.has(operator) && (target === undefined || !harmlessTargets.has(target));
}
