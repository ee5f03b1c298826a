// The text recorded beside the trained model: what it is, how it was made, and from which files
// under which licences.
import { tensorTypeNames } from "../../src/server/models/gguf-writer";
import type { LlamaSpec } from "../../src/server/models/llama-gguf";
import { TRAINING_REPOS } from "./training-repos";

export interface CorpusEntry {
  path: string;
  origin: string;
  license: string;
  language: string;
  split: "train" | "heldout";
  bytes: number;
  /** Application code from a training repository (absent in corpora listed before there was any). */
  application?: boolean;
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;

export function modelCard(input: { name: string; spec: LlamaSpec; dataset: { tokens: number; examples: Record<string, number>; seed: number; context: number; fimLayout?: string }; corpus: CorpusEntry[]; log: string; notes?: string }): string {
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
  const repos = TRAINING_REPOS.map((repo) => {
    const files = train.filter((f) => f.origin.startsWith(`${repo.name}@`));
    return `| [${repo.name}](https://github.com/${repo.name}) | \`${repo.commit.slice(0, 12)}\` | ${repo.license} (\`${repo.licenseFile}\`) | ${files.length} | ${mib(files.reduce((a, f) => a + f.bytes, 0))} |`;
  });
  // Rows written by hand (how the run went, what the bench measured) that no export can know.
  const notes = (input.notes ?? "").split("\n").filter((l) => l.startsWith("|")).map((l) => `${l}\n`).join("");
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
| weights | ${tensorTypeNames[spec.tensorType]}${spec.edgeTensorType !== undefined && spec.edgeTensorType !== spec.tensorType ? ` (token embedding and output ${tensorTypeNames[spec.edgeTensorType]})` : ""} (norms f32) |
| fill-in-the-middle | ${dataset.fimLayout === "suffix-middle-prefix" ? "suffix, middle, prefix: \`<|fim_prefix|><|fim_suffix|>…<|fim_middle|>…\`, the middle continuing the prefix (GGUF \`wisp.fim.layout\`)" : "suffix first: \`<|fim_suffix|>…<|fim_prefix|>…<|fim_middle|>\` (GGUF \`wisp.fim.suffix_first\`)"} |
| training data | ${dataset.tokens.toLocaleString("en")} tokens: ${Object.entries(dataset.examples).map(([k, v]) => `${v} ${k}`).join(", ")} examples, seed ${dataset.seed} |
| corpus | ${train.length} files for training (${mib(train.reduce((a, f) => a + f.bytes, 0))}), ${corpus.length - train.length} held out for the benchmark |
${notes}
${lastLines.length ? `Training:\n\n\`\`\`\n${lastLines.join("\n")}\n\`\`\`\n` : ""}
## Licences of the training text

The text is the JavaScript and TypeScript of the project's npm dependencies whose licence is
permissive, Python's standard library, and the code of permissively licensed applications and
libraries at pinned commits (\`scripts/train/training-repos.ts\`, fetched by
\`scripts/train/fetch-repos.ts\`; their tests, vendored, built and generated files left out). Exact
copies and near-duplicates (a file sharing more than half of its lines with one already kept, such as
a package's CommonJS and ESM builds of one module) are dropped, and so are minified, generated
and data-like files (keyword and character tables). Within each language, half of the examples
come from the applications, half from the libraries (the packages, the standard library and the
repositories marked \`library\`). The full list of files is in \`${name}.files.txt\`; each package's
licence text is in its own folder under \`node_modules/\`, Python's in
\`/usr/share/doc/python3.11/copyright\`, each repository's in its licence file at the commit below.

| repository | commit | licence | files | text |
|---|---|---|---|---|
${repos.join("\n")}

| licence | files | text | sources |
|---|---|---|---|
${rows.map(([licence, e]) => `| ${licence} | ${e.files} | ${mib(e.bytes)} | ${[...e.origins].sort().slice(0, 8).join(", ")}${e.origins.size > 8 ? `, and ${e.origins.size - 8} more` : ""} |`).join("\n")}
`;
}

export function trainingFileList(corpus: CorpusEntry[]): string {
  const lines = corpus.map((f) => `${f.split}\t${f.license}\t${f.origin}\t${f.path}`);
  return `# split\tlicence\tsource\tpath (held-out files were never trained on)\n${lines.join("\n")}\n`;
}
