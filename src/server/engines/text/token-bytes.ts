// A token's bytes, as OpenAI's logprobs `bytes` report them so that clients can join the pieces of
// a character split over tokens. Such a piece detokenizes to U+FFFD alone: its bytes are read from
// its spelling in the vocabulary instead (byte-level BPE characters, SentencePiece <0xNN> tokens).
import type { LlamaModel, Token } from "node-llama-cpp";

/** GPT-2's byte-level alphabet reversed: the character that spells each byte, to that byte. */
const byteOfCharacter = (() => {
  const bytes = new Map<string, number>();
  let unprintable = 256;
  for (let b = 0; b < 256; b++) {
    const printable = (b >= 0x21 && b <= 0x7e) || (b >= 0xa1 && b <= 0xac) || b >= 0xae;
    bytes.set(String.fromCodePoint(printable ? b : unprintable++), b);
  }
  return bytes;
})();

function spelledBytes(kind: string, spelling: string): number[] | undefined {
  if (kind === "gpt2") {
    const bytes = [...spelling].map((c) => byteOfCharacter.get(c));
    return bytes.every((b) => b !== undefined) ? (bytes as number[]) : undefined;
  }
  const byte = kind === "llama" ? /^<0x([0-9A-Fa-f]{2})>$/.exec(spelling) : null;
  return byte ? [parseInt(byte[1]!, 16)] : undefined;
}

/** `text` is the token's own detokenized text; whole characters are its UTF-8 as they are. */
export function tokenBytes(model: LlamaModel, token: Token, text: string): number[] {
  const vocabulary = model.fileInfo.metadata.tokenizer.ggml;
  const spelling = text.includes("\uFFFD") ? vocabulary.tokens[token] : undefined;
  return (spelling !== undefined && spelledBytes(vocabulary.model, spelling)) || [...Buffer.from(text, "utf8")];
}
