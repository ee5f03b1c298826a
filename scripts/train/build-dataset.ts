// npm run train-model, step 1: the corpus, its tokenizer (the project's BPE trainer), and the
// training examples (fill-in-the-middle cuts, plain code windows and chat turns) as token ids in
// the exact form the local server will feed the model. Seeded and deterministic. tokens.bin keeps
// each file's examples together (examples.bin says where each one is, in the order they are
// trained): their overlapping cuts compress to little more than the file itself, which is what a
// GPU machine's transfer limit counts. --shards N splits that storage into N ranges of files
// (dataset.json's `shards`), each of which can travel, or stay behind, on its own.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { getLlama, type LlamaModel, type Token } from "node-llama-cpp";
import { trainBpe, type BpeVocabulary } from "../../src/server/models/bpe-trainer";
import { TensorType } from "../../src/server/models/gguf-writer";
import { encodeLlamaGguf, llamaVocabulary } from "../../src/server/models/llama-gguf";
import { chatExample, pythonFunctions, scriptFunctions, type ChatExample } from "./chat-pairs";
import { collectCorpus, CORPUS_SOURCES, type CorpusFile, type CorpusSource, type Language } from "./corpus-files";
import { fimCut, lmWindow, suffixMiddlePrefix } from "./fim-examples";
import { seededPick } from "./seeded-pick";

const { values } = parseArgs({
  options: {
    out: { type: "string", default: ".cache/train/data" },
    repos: { type: "string", default: ".cache/train/repos" },
    tokens: { type: "string", default: "7e6" },
    merges: { type: "string", default: "4096" },
    context: { type: "string", default: "1024" },
    seed: { type: "string", default: "1" },
    // A trained model's tokenizer.json: the examples in its token ids, so that train.py --init can
    // take that model further on this corpus (a tokenizer trained on a changed corpus has other ids).
    tokenizer: { type: "string" },
    shards: { type: "string", default: "1" },
    // Some of the corpus's sources only (npm, python, repos), for a small rehearsal dataset.
    sources: { type: "string", default: CORPUS_SOURCES.join(",") },
  },
});
const out = path.resolve(values.out!);
const targetTokens = Number(values.tokens);
const context = Number(values.context);
const pick = seededPick(Number(values.seed));
const say = (s: string) => process.stdout.write(`${s}\n`);

await mkdir(out, { recursive: true });
let started = Date.now();
const files = collectCorpus(process.cwd(), path.resolve(values.repos!), values.sources!.split(",") as CorpusSource[]);
const train = files.filter((f) => f.split === "train");
say(`corpus: ${files.length} files (${train.length} for training, ${files.length - train.length} held out), ${(Date.now() - started) / 1000} s`);
await writeFile(path.join(out, "corpus.json"), JSON.stringify(files.map(({ text, ...f }) => ({ ...f, bytes: Buffer.byteLength(text) }))));

started = Date.now();
// Every training file's opening part: all languages and packages have a say in the vocabulary.
const bpe: BpeVocabulary = values.tokenizer
  ? JSON.parse(await readFile(values.tokenizer, "utf8"))
  : trainBpe(train.map((f) => f.text.slice(0, 4000)), Number(values.merges));
const vocabulary = llamaVocabulary(bpe);
say(`tokenizer: ${vocabulary.tokens.length} tokens, ${values.tokenizer ? `read from ${values.tokenizer}` : `${(Date.now() - started) / 1000} s`}`);
await writeFile(path.join(out, "tokenizer.json"), JSON.stringify(bpe));
const tokenizerSpec = { name: "wisp-tokenizer", embedding: 32, layers: 1, heads: 1, kvHeads: 1, feedForward: 32, contextLength: context, tensorType: TensorType.F32 };
const tokenizerFile = path.join(out, "tokenizer.gguf");
await writeFile(tokenizerFile, Buffer.concat(encodeLlamaGguf(tokenizerSpec, vocabulary, (_n, dims) => new Float32Array(dims.reduce((a, b) => a * b, 1)))));

const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
const model = await llama.loadModel({ modelPath: tokenizerFile, vocabOnly: true });
const special = (t: string) => model.tokenize(t, true)[0]!;
const [SUF, PRE, MID, EOS, PAD] = ["<|fim_suffix|>", "<|fim_prefix|>", "<|fim_middle|>", "<|endoftext|>", "<|fim_pad|>"].map(special) as Token[];

// Languages weighted by what people complete most here (TypeScript, JavaScript and Python, three
// quarters), then those written beside them, about as the corpus has them (SQL is scarce: 0.5%
// still passes over it five times in a 150M-token dataset); within a language, application code
// (the training repositories) as often as library code, though there is less of it; files by
// their size. A language the corpus lacks gives its share to the others.
const LANGUAGE_WEIGHTS: Record<Language, number> = { typescript: 56, javascript: 44, python: 48, go: 10, rust: 8, java: 6, csharp: 4, shell: 3, sql: 1, html: 4, css: 3, markdown: 8 };
const APPLICATION_SHARE = 0.5;
const pools = new Map<string, { files: CorpusFile[]; sums: number[] }>();
for (const file of train) {
  const key = `${file.language}/${file.application}`;
  const pool = pools.get(key) ?? { files: [], sums: [] };
  pool.sums.push((pool.sums.at(-1) ?? 0) + file.text.length);
  pool.files.push(file);
  pools.set(key, pool);
}
for (const [key, pool] of [...pools].sort()) say(`  ${key.replace("/true", ", application").replace("/false", ", libraries")}: ${pool.files.length} files`);
const languageWeights = Object.entries(LANGUAGE_WEIGHTS).filter(([l]) => pools.has(`${l}/true`) || pools.has(`${l}/false`));
const weightsTotal = languageWeights.reduce((sum, [, w]) => sum + w, 0);
function pickFile(): CorpusFile {
  let r = pick(weightsTotal);
  const [language] = languageWeights.find(([, w]) => (r -= w) < 0)!;
  const application = pools.get(`${language}/true`);
  const library = pools.get(`${language}/false`);
  const { files: poolFiles, sums } = application && (!library || pick(1000) < APPLICATION_SHARE * 1000) ? application : library!;
  const target = pick(sums.at(-1)!);
  let lo = 0;
  for (let hi = sums.length - 1; lo < hi; ) {
    const mid = (lo + hi) >> 1;
    if (sums[mid]! > target) hi = mid;
    else lo = mid + 1;
  }
  return poolFiles[lo]!;
}

const chats: { file: CorpusFile; fn: ReturnType<typeof pythonFunctions>[number] }[] = [];
// Documented functions are read in the three languages the chat answers about (docstrings, JSDoc).
const documented = (file: CorpusFile) => (file.language === "python" ? pythonFunctions(file.text) : file.language === "typescript" || file.language === "javascript" ? scriptFunctions(file.text) : []);
for (const file of train) for (const fn of documented(file)) chats.push({ file, fn });
say(`chat: ${chats.length} documented functions`);

/** Each file's examples' tokens, in the order they were made; stored together once all are made. */
const byFile = new Map<CorpusFile, Uint16Array[]>();
/** Per example: its file, then (as examples.bin has them) where its tokens start once stored, how many, the first with a loss, the first of its middle (weighted). */
const made: { file: CorpusFile; ids: Uint16Array; lossFrom: number; middleFrom: number }[] = [];
let tokenCount = 0;
const counts = { fim: 0, code: 0, chat: 0 };
const add = (file: CorpusFile, ids: readonly number[], lossFrom: number, kind: keyof typeof counts, middleFrom = ids.length) => {
  const stored = Uint16Array.from(ids);
  made.push({ file, ids: stored, lossFrom, middleFrom });
  const stack = byFile.get(file) ?? byFile.set(file, []).get(file)!;
  stack.push(stored);
  tokenCount += ids.length;
  counts[kind]++;
};

function fimExample(model: LlamaModel, file: CorpusFile): { ids: number[]; middleFrom: number } | undefined {
  const cut = fimCut(file.text, pick);
  if (!cut) return undefined;
  const middle = model.tokenize(cut.middle, false);
  if (middle.length > 128) return undefined;
  // Some prompts as long as the context allows (the server fits long ones to it), most shorter:
  // an example costs what it is long, and at a fixed training time short ones teach the
  // completion (the middle) several times as often.
  const full = pick(10) < 3;
  const suffix = model.tokenize(cut.suffix, false).slice(0, full ? 192 : pick(129));
  const budget = context - suffix.length - middle.length - 4;
  const keep = full ? budget : Math.min(budget, 16 + pick(400));
  const prefix = model.tokenize(cut.prefix, false).slice(-keep);
  return suffixMiddlePrefix({ prefix, suffix, middle }, { prefix: PRE!, suffix: SUF!, middle: MID!, end: EOS! });
}

function chatTokens(example: ChatExample): { ids: number[]; answerFrom: number } {
  const turns = example.messages.slice(0, -1).map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`);
  const prompt = model.tokenize(`${turns.join("")}<|im_start|>assistant\n`, true);
  const answer = model.tokenize(`${example.messages.at(-1)!.content}<|im_end|>`, true);
  return { ids: [...prompt, ...answer], answerFrom: prompt.length };
}

started = Date.now();
let chatAt = pick(Math.max(1, chats.length));
let reported = 0;
while (tokenCount < targetTokens) {
  const kind = pick(100);
  if (kind < 70) {
    const file = pickFile();
    const fim = fimExample(model, file);
    if (fim) add(file, fim.ids, 1, "fim", fim.middleFrom);
  } else if (kind < 88) {
    const file = pickFile();
    const ids = model.tokenize(lmWindow(file.text, pick, 2400), false).slice(0, context);
    if (ids.length > 32) add(file, ids, 1, "code");
  } else if (chats.length > 0) {
    const { file, fn } = chats[(chatAt = (chatAt + 1 + pick(7)) % chats.length)]!;
    const { ids, answerFrom } = chatTokens(chatExample(file, fn, pick));
    if (ids.length <= context) add(file, ids, answerFrom, "chat");
  }
  if (tokenCount - reported >= 5e6) say(`examples: ${(reported = tokenCount).toLocaleString()} of ${targetTokens.toLocaleString()} tokens`);
}
say(`examples: ${counts.fim} fill-in-the-middle, ${counts.code} code windows, ${counts.chat} chats; ${tokenCount.toLocaleString()} tokens, ${(Date.now() - started) / 1000} s`);

// Stored file by file, in the corpus's order, and cut into shards at file boundaries.
const tokens = new Uint16Array(tokenCount);
const offsets = new Map<Uint16Array, number>();
const shardCount = Math.max(1, Number(values.shards));
const shards: [number, number][] = [];
let at = 0;
for (const file of files) {
  for (const ids of byFile.get(file) ?? []) {
    offsets.set(ids, at);
    tokens.set(ids, at);
    at += ids.length;
  }
  const shardStart = shards.at(-1)?.[1] ?? 0;
  if (at - shardStart >= tokenCount / shardCount && shards.length < shardCount - 1) shards.push([shardStart, at]);
}
shards.push([shards.at(-1)?.[1] ?? 0, at]);
const examples = new Int32Array(made.length * 4);
made.forEach((e, i) => examples.set([offsets.get(e.ids)!, e.ids.length, e.lossFrom, e.middleFrom], i * 4));

await writeFile(path.join(out, "tokens.bin"), Buffer.from(tokens.buffer));
await writeFile(path.join(out, "examples.bin"), Buffer.from(examples.buffer));
await writeFile(
  path.join(out, "dataset.json"),
  JSON.stringify({ vocabSize: vocabulary.tokens.length, padTokenId: PAD, fimLayout: "suffix-middle-prefix", exampleFields: 4, context, seed: Number(values.seed), tokens: tokenCount, examples: counts, shards }, null, 1),
);
await model.dispose();
await llama.dispose();
