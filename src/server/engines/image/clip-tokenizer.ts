import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { END_TOKEN, START_TOKEN, bytesToUnicode, preTokenize, wordSymbols } from "./clip-text";

export const CLIP_CONTEXT_LENGTH = 77;

/**
 * CLIP's byte-level BPE tokenizer, read from a diffusers `tokenizer/` folder (vocab.json,
 * merges.txt, optional tokenizer_config.json for the padding token).
 */
export class ClipTokenizer {
  private readonly byteTable = bytesToUnicode();
  private readonly ranks: Map<string, number>;
  private readonly cache = new Map<string, number[]>();
  /** Whole prompts: the same ones come back across requests (new seeds, retries, the negative prompt). */
  private readonly encoded = new Map<string, Int32Array>();
  private readonly startId: number;
  private readonly endId: number;
  private readonly padId: number;

  constructor(
    private readonly vocab: ReadonlyMap<string, number>,
    merges: readonly string[],
    padToken: string = END_TOKEN,
    private readonly contextLength = CLIP_CONTEXT_LENGTH,
  ) {
    this.ranks = new Map(merges.map((m, i) => [m, i]));
    this.startId = this.idOf(START_TOKEN);
    this.endId = this.idOf(END_TOKEN);
    this.padId = this.idOf(padToken);
  }

  static async load(dir: string): Promise<ClipTokenizer> {
    const vocab = JSON.parse(await readFile(join(dir, "vocab.json"), "utf8")) as Record<string, number>;
    const merges = (await readFile(join(dir, "merges.txt"), "utf8"))
      .split("\n")
      .filter((line) => line.length > 0 && !line.startsWith("#version"));
    const config = await readFile(join(dir, "tokenizer_config.json"), "utf8").then(JSON.parse, () => ({}));
    const pad = typeof config.pad_token === "string" ? config.pad_token : config.pad_token?.content;
    return new ClipTokenizer(new Map(Object.entries(vocab)), merges, pad ?? END_TOKEN);
  }

  /** Token ids without the start/end markers. */
  tokenize(text: string): number[] {
    return preTokenize(text, this.byteTable).flatMap((word) =>
      word === START_TOKEN || word === END_TOKEN ? [this.idOf(word)] : this.bpe(word),
    );
  }

  /** start + tokens (truncated) + end, padded to the context length: the text encoder's input. */
  encode(text: string): Int32Array {
    const cached = this.encoded.get(text);
    if (cached) return cached.slice();
    const ids = new Int32Array(this.contextLength).fill(this.padId);
    const tokens = this.tokenize(text).slice(0, this.contextLength - 2);
    ids[0] = this.startId;
    ids.set(tokens, 1);
    ids[tokens.length + 1] = this.endId;
    if (this.encoded.size >= 256) this.encoded.clear(); // bounded: prompts are arbitrary
    this.encoded.set(text, ids.slice());
    return ids;
  }

  private bpe(word: string): number[] {
    const cached = this.cache.get(word);
    if (cached) return cached;
    let symbols = wordSymbols(word);
    for (;;) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i < symbols.length - 1; i++) {
        const rank = this.ranks.get(`${symbols[i]} ${symbols[i + 1]}`);
        if (rank !== undefined && rank < bestRank) [best, bestRank] = [i, rank];
      }
      if (best < 0) break;
      const merged = symbols[best] + symbols[best + 1];
      const pair = `${symbols[best]} ${symbols[best + 1]}`;
      const next: string[] = [];
      for (let i = 0; i < symbols.length; i++) {
        if (i < symbols.length - 1 && `${symbols[i]} ${symbols[i + 1]}` === pair) {
          next.push(merged);
          i++;
        } else next.push(symbols[i]);
      }
      symbols = next;
    }
    const ids = symbols.map((s) => this.idOf(s));
    if (this.cache.size >= 4096) this.cache.clear(); // bounded: prompts are arbitrary
    this.cache.set(word, ids);
    return ids;
  }

  private idOf(token: string): number {
    const id = this.vocab.get(token);
    if (id === undefined) throw new Error(`CLIP vocabulary has no token ${JSON.stringify(token)}`);
    return id;
  }
}
