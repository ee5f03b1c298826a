/**
 * A sed script can write files (`w FILE`, `W FILE`, the `s///w FILE` flag) and run commands (`e`,
 * the `s///e` flag), though sed is mostly used to read (`sed -n 1,20p f`). The script is read
 * command by command, as sed reads it; one it cannot read asks, as do scripts taken from a file
 * we cannot see (`-f`, `--file`). GNU sed's `--sandbox` refuses those commands itself.
 */

const riskyScript = "a sed script that may write files or run commands";
/** What `w` may name without writing a file (GNU sed writes these to its own output). */
const harmlessFiles = new Set(["/dev/stdout", "/dev/stderr"]);
/** Commands that take no argument (`l`, `q`, `Q`, `L` take an optional number). */
const plain = "=dDgGhHnNpPxzFlLqQ";

/**
 * The risky option or script of a sed command, as `riskyOption` reports it. Scripts are every
 * `-e`, and the first operand when no `-e` comes before it: GNU sed reads it as a file when an `-e`
 * comes later, macOS sed as the script, and both readings are judged.
 */
export function riskySed(words: readonly (string | undefined)[]): string | undefined {
  const computed = "a computed argument";
  const scripts: string[] = [];
  let sandbox = false;
  let firstOperand: string | undefined;
  let expressionBefore = false;
  // GNU sed takes options after operands too, so any computed word may be one; after `--` only the script.
  for (let i = 1; i < words.length; i++) {
    const word = words[i];
    if (word === undefined) return computed;
    if (word === "--") {
      if (firstOperand === undefined && !expressionBefore && i + 1 < words.length) {
        firstOperand = words[i + 1];
        if (firstOperand === undefined) return computed;
      }
      break;
    }
    if (!word.startsWith("-") || word === "-") {
      if (firstOperand === undefined && !expressionBefore) firstOperand = word;
      continue;
    }
    if (word.startsWith("--")) {
      // Abbreviated as getopt_long reads them (`--exp=…`); an ambiguous prefix is an error.
      const name = word.split("=")[0]!;
      const value = word.includes("=") ? word.slice(name.length + 1) : undefined;
      if (name.length <= 2) continue;
      if ("--file".startsWith(name)) return "--file";
      if ("--sandbox".startsWith(name) && name.length > 3) sandbox = true;
      else if ("--expression".startsWith(name)) {
        const script = value ?? (++i < words.length ? words[i] : "");
        if (script === undefined) return computed;
        scripts.push(script);
        expressionBefore = true;
      } else if ("--line-length".startsWith(name) && value === undefined) i++;
      continue;
    }
    for (let j = 1; j < word.length; j++) {
      const letter = word[j]!;
      if (letter === "f") return "-f";
      if (letter === "l") {
        // GNU's `-l N` takes a value, macOS's `-l` none: the next word is judged as a script too (a number asks).
        if (j + 1 === word.length && ++i < words.length) {
          if (words[i] === undefined) return computed;
          scripts.push(words[i]!);
        }
        break;
      }
      if (letter !== "e") continue;
      const script = j + 1 < word.length ? word.slice(j + 1) : ++i < words.length ? words[i] : "";
      if (script === undefined) return computed;
      scripts.push(script);
      expressionBefore = true;
      break;
    }
  }
  if (firstOperand !== undefined) scripts.push(firstOperand);
  if (sandbox) return undefined;
  // `-e a -e b` is one script, a line each; a bracket may or may not hide the delimiter (`s/[/]/x/`): both readings.
  const script = scripts.join("\n");
  return [true, false].some((brackets) => !safeScript(script, brackets)) ? riskyScript : undefined;
}

/** Whether the script reads as sed commands none of which writes a file or runs a command. */
function safeScript(script: string, brackets: boolean): boolean {
  const reader = new ScriptReader(script, brackets);
  try {
    while (reader.command());
    return true;
  } catch {
    return false;
  }
}

class ScriptReader {
  private at = 0;

  constructor(
    private readonly text: string,
    private readonly brackets: boolean,
  ) {}

  /** Reads one command; false at the end. Throws where a command writes, runs or cannot be read. */
  command(): boolean {
    this.skip(" \t\n;}");
    if (this.at >= this.text.length) return false;
    if (this.peek() === "#") {
      this.restOfLine();
      return true;
    }
    this.address();
    this.skip(" \t");
    if (this.peek() === ",") {
      this.at++;
      this.skip(" \t");
      if ("+~".includes(this.peek())) this.at++;
      this.address();
    }
    this.skip(" \t!");
    const name = this.text[this.at++];
    if (name === undefined) throw new Error("no command");
    if (name === "{") return true;
    if (plain.includes(name)) {
      this.skip(" \t");
      while (/\d/.test(this.peek())) this.at++;
      return this.end();
    }
    switch (name) {
      case "a":
      case "i":
      case "c":
        this.restOfLine(true);
        return true;
      case "r":
      case "R":
        this.restOfLine();
        return true;
      case "w":
      case "W":
        return this.fileName();
      case ":":
      case "b":
      case "t":
      case "T":
      case "v":
        // Labels end at a newline or `;`.
        while (this.at < this.text.length && !"\n;".includes(this.peek())) this.at++;
        return true;
      case "s":
        return this.substitution();
      case "y": {
        const delimiter = this.delimiter();
        this.delimited(delimiter);
        this.delimited(delimiter);
        return this.end();
      }
      default:
        // `e` runs a command; anything else is not read.
        throw new Error(name);
    }
  }

  private substitution(): boolean {
    const delimiter = this.delimiter();
    this.delimited(delimiter);
    this.delimited(delimiter);
    for (;;) {
      const flag = this.peek();
      if (flag === "w") {
        this.at++;
        return this.fileName();
      }
      if (flag === "" || !/[gpiImM0-9]/.test(flag)) return this.end();
      this.at++;
    }
  }

  /** `/re/I`, `\%re%`, a line number, `first~step` or `$`. */
  private address(): void {
    const c = this.peek();
    if (c === "$") this.at++;
    else if (/\d/.test(c)) while (/[\d~]/.test(this.peek())) this.at++;
    else if (c === "/" || c === "\\") {
      this.at++;
      this.delimited(c === "/" ? "/" : this.delimiter());
      while ("IM".includes(this.peek()) && this.peek() !== "") this.at++;
    }
  }

  private delimiter(): string {
    const c = this.text[this.at++];
    if (c === undefined || c === "\n" || c === "\\") throw new Error("delimiter");
    return c;
  }

  /** The text up to an unescaped delimiter, which it passes. */
  private delimited(delimiter: string): void {
    for (; this.at < this.text.length; this.at++) {
      const c = this.text[this.at]!;
      if (c === "\\") this.at++;
      else if (c === delimiter) {
        this.at++;
        return;
      } else if (c === "[" && this.brackets) this.bracket();
    }
    throw new Error("unterminated");
  }

  /** Passes a bracket expression (`[]/x]`, `[[:alpha:]/]`), leaving `at` on its `]`. */
  private bracket(): void {
    const start = this.at;
    this.at++;
    if (this.peek() === "^") this.at++;
    if (this.peek() === "]") this.at++;
    for (; this.at < this.text.length; this.at++) {
      if (this.text.startsWith("[:", this.at) || this.text.startsWith("[=", this.at) || this.text.startsWith("[.", this.at)) {
        const close = this.text.indexOf(`${this.text[this.at + 1]}]`, this.at + 2);
        if (close < 0) break;
        this.at = close + 1;
      } else if (this.peek() === "]") return;
    }
    // No closing bracket: a plain `[`.
    this.at = start;
  }

  /** The file a `w` writes: only sed's own output may be named. */
  private fileName(): boolean {
    const name = this.restOfLine().trim();
    if (!harmlessFiles.has(name)) throw new Error("writes");
    return true;
  }

  /** The rest of the line, passed; text of `a`, `i`, `c` goes on past a newline escaped with `\`. */
  private restOfLine(escapes = false): string {
    const start = this.at;
    while (this.at < this.text.length && this.peek() !== "\n") this.at += escapes && this.peek() === "\\" ? 2 : 1;
    return this.text.slice(start, this.at);
  }

  /** After a command: a separator, a `}`, a comment or the end. */
  private end(): boolean {
    this.skip(" \t");
    if (this.at < this.text.length && !"\n;}#".includes(this.peek())) throw new Error("extra characters");
    return true;
  }

  private skip(chars: string): void {
    while (this.at < this.text.length && chars.includes(this.peek())) this.at++;
  }

  private peek(): string {
    return this.text[this.at] ?? "";
  }
}
