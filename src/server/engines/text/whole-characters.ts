// Grammar-constrained text in whole UTF-8 characters. llama.cpp's grammar decodes a token's bytes
// without checking that they are UTF-8: lead bytes F5-FF come out as "characters" above U+10FFFF,
// ED A0-BF as surrogates, and E0 or F0 followed by too small a byte (an overlong form) as an
// ordinary character. A model that writes any bytes (the random-weight wisp-tiny) gets all of them
// through a JSON string's [^"\\...] class, and the answer decodes to U+FFFD. Two guards:
// - what the grammar sees: JSON string characters are Unicode scalar values (wholeCharacterStrings);
// - what it cannot: while a character is pending, tokens that would not continue it as UTF-8 are
//   ruled out (CharacterContinuations).
import type { LlamaModel, Token } from "node-llama-cpp";
import type { TokenTexts } from "./token-texts";

/** node-llama-cpp's JSON string character (its JSON-schema grammars and json.gbnf): any code point but `"`, `\` and controls. */
const anyCharacter = String.raw`[^"\\\x7F\x00-\x1F]`;
/** The same, only Unicode scalar values: no surrogates, nothing above U+10FFFF. */
const scalarCharacter = String.raw`[\x20-\x21\x23-\x5B\x5D-\x7E\x80-\uD7FF\uE000-\U0010FFFF]`;

/** A JSON grammar of node-llama-cpp's whose strings hold only Unicode scalar values. */
export function wholeCharacterStrings(gbnf: string): string {
  return gbnf.replaceAll(anyCharacter, scalarCharacter);
}

/** Pending characters remembered per model; past this the table starts over (a bound on memory). */
const maxPending = 4096;

/** Text decoded from bytes that are UTF-8 so far: no U+FFFD, or one at the very end (a character still pending). */
function utf8SoFar(text: string): boolean {
  const at = text.indexOf("\uFFFD");
  return at === -1 || at === text.length - 1;
}

export class CharacterContinuations {
  /** Per model, the tokens that start inside a character (their own text starts with U+FFFD). */
  private readonly inside = new WeakMap<LlamaModel, Token[]>();
  /** Per model, what is ruled out after each pending character (by its tokens). */
  private readonly ruledOut = new WeakMap<LlamaModel, Map<string, readonly Token[]>>();

  constructor(private readonly texts: TokenTexts) {}

  /**
   * The tokens that must not follow `pending`, the tokens of a character not yet whole (see
   * IncrementalText.pending): those that start inside a character but do not continue this one
   * as UTF-8. A token that starts a character of its own is one the grammar refuses there.
   */
  after(model: LlamaModel, pending: readonly Token[]): readonly Token[] {
    if (pending.length === 0) return [];
    let table = this.ruledOut.get(model);
    if (!table) {
      table = new Map();
      this.ruledOut.set(model, table);
    }
    const key = pending.join(",");
    let tokens = table.get(key);
    if (!tokens) {
      tokens = this.insideOf(model).filter((t) => !utf8SoFar(model.detokenize([...pending, t])));
      if (table.size >= maxPending) table.clear();
      table.set(key, tokens);
    }
    return tokens;
  }

  private insideOf(model: LlamaModel): Token[] {
    let tokens = this.inside.get(model);
    if (!tokens) {
      tokens = this.texts.of(model).flatMap((text, t) => (text.startsWith("\uFFFD") ? [t as Token] : []));
      this.inside.set(model, tokens);
    }
    return tokens;
  }
}
