// The text recorded beside the trained model: what it is, how it was made, and from which files
// under which licences.
import type { LlamaSpec } from "../../src/server/models/llama-gguf";

export interface CorpusEntry {
  path: string;
  origin: string;
  license: string;
  language: string;
  split: "train" | "heldout";
  bytes: number;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export function modelCard(input: { name: string; spec: LlamaSpec; dataset: { tokens: number; examples: Record<string, number>; seed: number; context: number; fimLayout?: string }; corpus: CorpusEntry[]; log: string }): string {
  const { name, spec, dataset, corpus } = input;
  const train = corpus.filter((f) => f.split === "train");
  const licences = new Map<string, { files: number; bytes: number; origins: Set<string> }>();
  for (const f of train) {
    const entry = licences.get(f.license) ?? { files: 0, bytes: 0, origins: new Set() };
    entry.files++;
    entry.bytes += f.bytes;
    entry.origins.add(f.origin);
    licences.set(f.license, entry);
  }
  const rows = [...licences].sort((a, b) => b[1].bytes - a[1].bytes);
  const lastLines = input.log.trim().split("\n").filter((l) => /^(model|done|step)/.test(l)).slice(-3);
  return `# ${name}

Wisp's small code model: a llama-architecture model trained by the project itself (\`npm run
train-model\`), so that the local server completes code and answers about it with no download.
It is tiny: expect short, plausible completions of common code, not a large model's quality.

| | |
|---|---|
| architecture | llama, ${spec.layers} layers, embedding ${spec.embedding}, ${spec.heads} heads, feed-forward ${spec.feedForward} |
| context | ${spec.contextLength} tokens (the server fits longer fill-in-the-middle prompts to it) |
| tokenizer | byte-level BPE trained by the project on the same corpus, ChatML and FIM special tokens |
| weights | ${["f32", "f16", "", "", "", "", "", "", "q8_0"][spec.tensorType]} (norms f32) |
| fill-in-the-middle | ${dataset.fimLayout === "suffix-middle-prefix" ? "suffix, middle, prefix: \`<|fim_prefix|><|fim_suffix|>…<|fim_middle|>…\`, the middle continuing the prefix (GGUF \`wisp.fim.layout\`)" : "suffix first: \`<|fim_suffix|>…<|fim_prefix|>…<|fim_middle|>\` (GGUF \`wisp.fim.suffix_first\`)"} |
| training data | ${dataset.tokens.toLocaleString("en")} tokens: ${Object.entries(dataset.examples).map(([k, v]) => `${v} ${k}`).join(", ")} examples, seed ${dataset.seed} |
| corpus | ${train.length} files for training (${mib(train.reduce((a, f) => a + f.bytes, 0))}), ${corpus.length - train.length} held out for the benchmark |

${lastLines.length ? `Training:\n\n\`\`\`\n${lastLines.join("\n")}\n\`\`\`\n` : ""}
## Licences of the training text

Every file comes from this machine: the JavaScript and TypeScript of the project's npm
dependencies whose licence is permissive, and Python's standard library. The full list of files
is in \`${name}.files.txt\`; each package's licence text is in its own folder under
\`node_modules/\`, Python's in \`/usr/share/doc/python3.11/copyright\`.

| licence | files | text | sources |
|---|---|---|---|
${rows.map(([licence, e]) => `| ${licence} | ${e.files} | ${mib(e.bytes)} | ${[...e.origins].sort().slice(0, 8).join(", ")}${e.origins.size > 8 ? `, and ${e.origins.size - 8} more` : ""} |`).join("\n")}
`;
}

export function trainingFileList(corpus: CorpusEntry[]): string {
  const lines = corpus.map((f) => `${f.split}\t${f.license}\t${f.origin}\t${f.path}`);
  return `# split\tlicence\tsource\tpath (held-out files were never trained on)\n${lines.join("\n")}\n`;
}
