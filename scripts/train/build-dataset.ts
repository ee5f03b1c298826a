// npm run train-model, step 1: the corpus, its tokenizer (the project's BPE trainer), and the
// training examples (fill-in-the-middle cuts, plain code windows and chat turns) as token ids in
// the exact form the local server will feed the model. Seeded and deterministic.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { getLlama, type LlamaModel, type Token } from "node-llama-cpp";
import { trainBpe, type BpeVocabulary } from "../../src/server/models/bpe-trainer";
import { TensorType } from "../../src/server/models/gguf-writer";
import { encodeLlamaGguf, llamaVocabulary } from "../../src/server/models/llama-gguf";
import { chatExample, pythonFunctions, scriptFunctions, type ChatExample } from "./chat-pairs";
import { collectCorpus, type CorpusFile } from "./corpus-files";
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
  },
});
const out = path.resolve(values.out!);
const targetTokens = Number(values.tokens);
const context = Number(values.context);
const pick = seededPick(Number(values.seed));
const say = (s: string) => process.stdout.write(`${s}\n`);

await mkdir(out, { recursive: true });
let started = Date.now();
const files = collectCorpus(process.cwd(), path.resolve(values.repos!));
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

// Languages weighted by what people complete most here; within a language, application code (the
// training repositories) as often as library code, though there is less of it; files by their size.
const languageWeights: [CorpusFile["language"], number][] = [["typescript", 40], ["javascript", 30], ["python", 30]];
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
function pickFile(): CorpusFile {
  let r = pick(100);
  const [language] = languageWeights.find(([, w]) => (r -= w) < 0)!;
  const application = pools.get(`${language}/true`);
  const library = pools.get(`${language}/false`)!;
  const { files: poolFiles, sums } = application && pick(1000) < APPLICATION_SHARE * 1000 ? application : library;
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
for (const file of train) for (const fn of file.language === "python" ? pythonFunctions(file.text) : scriptFunctions(file.text)) chats.push({ file, fn });
say(`chat: ${chats.length} documented functions`);

const tokenIds: number[] = [];
const examples: number[] = [];
const counts = { fim: 0, code: 0, chat: 0 };
/** Per example: where its tokens start, how many, the first with a loss, the first of its middle (weighted). */
const add = (ids: readonly number[], lossFrom: number, kind: keyof typeof counts, middleFrom = ids.length) => {
  examples.push(tokenIds.length, ids.length, lossFrom, middleFrom);
  for (const id of ids) tokenIds.push(id);
  counts[kind]++;
};

function fimExample(model: LlamaModel): { ids: number[]; middleFrom: number } | undefined {
  const cut = fimCut(pickFile().text, pick);
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
while (tokenIds.length < targetTokens) {
  const kind = pick(100);
  if (kind < 70) {
    const fim = fimExample(model);
    if (fim) add(fim.ids, 1, "fim", fim.middleFrom);
  } else if (kind < 88) {
    const ids = model.tokenize(lmWindow(pickFile().text, pick, 2400), false).slice(0, context);
    if (ids.length > 32) add(ids, 1, "code");
  } else if (chats.length > 0) {
    const { file, fn } = chats[(chatAt = (chatAt + 1 + pick(7)) % chats.length)]!;
    const { ids, answerFrom } = chatTokens(chatExample(file, fn, pick));
    if (ids.length <= context) add(ids, answerFrom, "chat");
  }
  if (examples.length % 3000 === 0) say(`examples: ${tokenIds.length.toLocaleString()} of ${targetTokens.toLocaleString()} tokens`);
}
say(`examples: ${counts.fim} fill-in-the-middle, ${counts.code} code windows, ${counts.chat} chats; ${tokenIds.length.toLocaleString()} tokens, ${(Date.now() - started) / 1000} s`);

await writeFile(path.join(out, "tokens.bin"), Buffer.from(Uint16Array.from(tokenIds).buffer));
await writeFile(path.join(out, "examples.bin"), Buffer.from(Int32Array.from(examples).buffer));
await writeFile(
  path.join(out, "dataset.json"),
  JSON.stringify({ vocabSize: vocabulary.tokens.length, padTokenId: PAD, fimLayout: "suffix-middle-prefix", exampleFields: 4, context, seed: Number(values.seed), tokens: tokenIds.length, examples: counts }, null, 1),
);
await model.dispose();
await llama.dispose();
