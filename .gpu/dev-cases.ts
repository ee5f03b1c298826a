// The completion bench's `dev` half (bench/fim-quality: one-line fill-in-the-middle cases from the
// outside projects, the same cases and near-duplicate filter) in a dataset's tokens, for the GPU
// run to evaluate its weights on with torch alone (no Node there): each case's prompt as the server
// builds it (token healing included: the healed text and the tokens that may start the answer), the
// lines the file offers (fileLines, each tokenized as line-choice.ts scores it), the real rest of
// the line, and the vocabulary's bytes and line-ending tokens. eval_dev.py reads it.
//   npx tsx .gpu/dev-cases.ts --data DIR --out FILE.json [--repos DIR] [--sources npm,python,repos] [--split dev] [--limit N]
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { getLlama, type Token } from "node-llama-cpp";
import { outsideCases } from "../bench/fim-quality/cases";
import { healedInfill } from "../src/server/engines/text/infill-prompt";
import { tokenizeText } from "../src/server/engines/text/inert-text";
import { fileLines } from "../src/server/engines/text/line-candidates";
import { byteLevelBytes, TokenTexts } from "../src/server/engines/text/token-texts";
import { collectCorpus, CORPUS_SOURCES, type CorpusSource } from "../scripts/train/corpus-files";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: ".cache/gpu/data" },
    out: { type: "string" },
    repos: { type: "string", default: ".cache/train/repos" },
    sources: { type: "string", default: CORPUS_SOURCES.join(",") },
    split: { type: "string", default: "dev" },
    limit: { type: "string" },
  },
});
if (!values.out) throw new Error("--out FILE is required");
/** As the fim-quality bench asks: a first line of at most this many tokens. */
const MAX_TOKENS = 48;
const NORMAL = 1;

const training = collectCorpus(process.cwd(), path.resolve(values.repos!), values.sources!.split(",") as CorpusSource[]).filter((f) => f.split === "train");
const cases = outsideCases(process.cwd(), training)
  .cases.filter((c) => c.split === values.split)
  .slice(0, values.limit === undefined ? undefined : Number(values.limit));
const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" as never });
// Loaded whole (the tokenizer's model is tiny): loaded for its vocabulary only, its trainContextSize
// is 0 and the server's prompt budget, min(context, trainContextSize), leaves no room for the code.
const model = await llama.loadModel({ modelPath: path.join(values.data!, "tokenizer.gguf") });
const texts = new TokenTexts();
const ggml = model.fileInfo.metadata.tokenizer.ggml as unknown as { tokens: string[]; token_type: number[] };
const vocabulary = ggml.tokens.map((spelled, t) => (ggml.token_type[t] === NORMAL ? Buffer.from(byteLevelBytes(spelled)).toString("hex") : ""));
const eog = ggml.tokens.flatMap((_, t) => (model.isEogToken(t as Token) ? [t] : []));

const packed = cases.map((c) => {
  const { prompt, heal } = healedInfill(model, model.trainContextSize, c.prefix, c.suffix, MAX_TOKENS);
  const healed = heal?.text ?? "";
  const lines = fileLines(c.prefix, c.suffix).lines.map((line) => {
    const tokens = tokenizeText(model, healed + line);
    // As line-choice.ts answers a line longer than max_tokens: cut there.
    return { tokens: tokens.slice(0, MAX_TOKENS), text: tokens.length > MAX_TOKENS ? model.detokenize(tokens.slice(0, MAX_TOKENS)).slice(healed.length) : line };
  });
  return {
    project: c.project,
    language: c.language,
    cursor: c.cursor,
    expected: c.expected,
    prompt,
    heal: heal ? { text: healed, tokens: [...texts.healingBias(model, new Map(), healed).keys()] } : null,
    lines,
  };
});
writeFileSync(values.out, JSON.stringify({ split: values.split, maxTokens: MAX_TOKENS, vocabulary, eog, lineEnds: [...texts.lineEnds(model)], cases: packed }));
process.stdout.write(`${packed.length} ${values.split} cases (${packed.filter((c) => c.lines.length > 0).length} with lines from the file) in ${values.out}\n`);
await model.dispose();
await llama.dispose();
