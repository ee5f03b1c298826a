// Text from a user (a chat message, the code around the cursor) never becomes a control token. llama.cpp
// matches user-defined tokens even in plain text (DeepSeek-Coder's <|EOT|> and FIM tokens are of that
// type), so typing "<|EOT|>" would otherwise end the turn inside the prompt. Such text is tokenized in
// two pieces, its first character and the rest, which no vocabulary maps to the marker.
import type { LlamaModel, Token, Tokenizer } from "node-llama-cpp";
import { escapeRegExp } from "../../../core/base/escape-reg-exp";

const TOKEN_TYPE_NORMAL = 1;
const TOKEN_TYPE_BYTE = 6;

/** Marker-like texts (<...> or [...]) of the model's non-normal tokens, longest first, as one pattern. */
const markerPatterns = new WeakMap<LlamaModel, RegExp | null>();

/** Made once per model: built ahead with its token tables (see TokenTexts.prepare), else by its first request. */
export function markerPattern(model: LlamaModel): RegExp | null {
  let pattern = markerPatterns.get(model);
  if (pattern === undefined) {
    const { tokens, token_type: types } = model.fileInfo.metadata.tokenizer.ggml as { tokens: readonly string[]; token_type?: readonly number[] };
    const markers = tokens.filter((text, id) => {
      const type = types?.[id] ?? TOKEN_TYPE_NORMAL;
      return type !== TOKEN_TYPE_NORMAL && type !== TOKEN_TYPE_BYTE && text.length >= 3 && /^[<[].*[>\]]$/s.test(text);
    });
    const escaped = markers.sort((a, b) => b.length - a.length).map(escapeRegExp);
    pattern = escaped.length > 0 ? new RegExp(`(${escaped.join("|")})`) : null;
    markerPatterns.set(model, pattern);
  }
  return pattern;
}

/** Tokenizes `text` as plain text: special-token spellings in it stay text. */
export function tokenizeText(model: LlamaModel, text: string, options?: "trimLeadingSpace"): Token[] {
  const pattern = markerPattern(model);
  if (pattern === null || !pattern.test(text)) return model.tokenize(text, false, options);
  const tokens: Token[] = [];
  text.split(pattern).forEach((part, i) => {
    if (part === "") return;
    const trim = tokens.length > 0 ? "trimLeadingSpace" : options;
    // Odd parts are the markers the split captured.
    if (i % 2 === 1) tokens.push(...model.tokenize(part.slice(0, 1), false, trim), ...model.tokenize(part.slice(1), false, "trimLeadingSpace"));
    else tokens.push(...model.tokenize(part, false, trim));
  });
  return tokens;
}

/** The model's tokenizer, with plain text tokenized by tokenizeText (for LlamaText.tokenize). */
export function inertTokenizer(model: LlamaModel): Tokenizer {
  const base = model.tokenizer;
  const tokenize = ((text: string, specialTokens?: boolean | "builtin", options?: "trimLeadingSpace") =>
    specialTokens === false || specialTokens === undefined ? tokenizeText(model, text, options) : base(text as never, specialTokens as never, options as never)) as Tokenizer;
  return Object.assign(tokenize, { detokenize: base.detokenize, isSpecialToken: base.isSpecialToken, isEogToken: base.isEogToken });
}
