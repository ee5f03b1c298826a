// npm run train-model, last step: the trained weights (train.py's weights.bin/json, or its compact
// checkpoint: state.json and weights-N.q8, what a GPU run returns) and the
// dataset's tokenizer become models/wisp-coder.gguf through the project's GGUF writer, with a model
// card and the list of training files and their licences beside it.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import type { BpeVocabulary } from "../../src/server/models/bpe-trainer";
import { TensorType, tensorTypeNames } from "../../src/server/models/gguf-writer";
import { encodeLlamaGguf, llamaVocabulary, type LlamaSpec } from "../../src/server/models/llama-gguf";
import { readTrainedWeights } from "./compact-weights";
import { modelCard, trainingFileList, type CorpusEntry } from "./model-card";

const { values } = parseArgs({
  options: {
    data: { type: "string", default: ".cache/train/data" },
    weights: { type: "string", default: ".cache/train/run" },
    out: { type: "string", default: "models/wisp-coder.gguf" },
    name: { type: "string", default: "wisp-coder" },
    log: { type: "string" },
    /** Table rows for the card written by hand (default: scripts/train/NAME.card-notes.md, where there is one). */
    notes: { type: "string" },
    /** The blocks' matrices: q8_0, q5_0, q4_0, f16 or f32. */
    type: { type: "string", default: "q8_0" },
    /** token_embd and output (default: q8_0 under a 4- or 5-bit --type, else --type). */
    "edge-type": { type: "string" },
  },
});
const out = path.resolve(values.out!);
const bpe = JSON.parse(await readFile(path.join(values.data!, "tokenizer.json"), "utf8")) as BpeVocabulary;
const dataset = JSON.parse(await readFile(path.join(values.data!, "dataset.json"), "utf8"));
const corpus = JSON.parse(await readFile(path.join(values.data!, "corpus.json"), "utf8")) as CorpusEntry[];
// train.py's float32 weights, or the compact checkpoint (q8_0) a GPU run returned.
const { spec: trained, tensors, weights } = readTrainedWeights(values.weights!);
const vocabulary = llamaVocabulary(bpe);
if (vocabulary.tokens.length !== trained.vocabSize) throw new Error(`vocabulary has ${vocabulary.tokens.length} tokens, the weights ${trained.vocabSize}`);

const byName = new Map(tensors.map((t) => [t.name, t]));
const typeOf = (name: string, option: string): TensorType => {
  const type = Object.entries(tensorTypeNames).find(([, n]) => n === name)?.[0];
  if (type === undefined) throw new Error(`${option} must be one of ${Object.values(tensorTypeNames).join(", ")}`);
  return Number(type) as TensorType;
};
const tensorType = typeOf(values.type!, "--type");
const edgeTensorType = typeOf(values["edge-type"] ?? (tensorType === TensorType.Q4_0 || tensorType === TensorType.Q5_0 ? "q8_0" : values.type!), "--edge-type");
const spec: LlamaSpec = { ...trained, name: values.name!, tensorType, edgeTensorType };
const chunks = encodeLlamaGguf(spec, vocabulary, (name, dims) => {
  const t = byName.get(name);
  if (!t) throw new Error(`no trained tensor ${name}`);
  const size = dims.reduce((a, b) => a * b, 1);
  if (t.shape.reduce((a, b) => a * b, 1) !== size) throw new Error(`${name}: trained shape ${t.shape} does not fit ${dims}`);
  return new Float32Array(weights.buffer.slice(weights.byteOffset + t.offset, weights.byteOffset + t.offset + size * 4));
}, { fimLayout: dataset.fimLayout ?? "suffix-first", extra: new Map([["general.description", { type: "string", value: "Wisp's small code model, trained by the project on permissively licensed source text (see wisp-coder.md)." }]]) });
await mkdir(path.dirname(out), { recursive: true });
const temp = `${out}.${process.pid}.tmp`;
await writeFile(temp, Buffer.concat(chunks));
await rename(temp, out);
const log = values.log ? await readFile(values.log, "utf8").catch(() => "") : "";
const base = out.replace(/\.gguf$/, "");
const notes = await readFile(values.notes ?? path.join(import.meta.dirname, `${values.name}.card-notes.md`), "utf8").catch(() => "");
await writeFile(`${base}.md`, modelCard({ name: values.name!, spec, dataset, corpus, log, notes }));
await writeFile(`${base}.files.txt`, trainingFileList(corpus));
const size = (await readFile(out)).length;
process.stdout.write(`wrote ${out} (${(size / 2 ** 20).toFixed(1)} MiB), ${path.basename(base)}.md and ${path.basename(base)}.files.txt\n`);
