// Trains wisp-tiny-diffusion's CLIP-layout tokenizer on sample captions (train_image.py
// --captions N, on stdin) and writes vocab.json and merges.txt into --out. Merging until no pair
// repeats makes every caption word one token, which the training script's word lookup relies on.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { trainClipVocabulary } from "../../../src/server/engines/image/default-model/clip-vocab-trainer";

const { values } = parseArgs({ options: { out: { type: "string" } } });
if (!values.out) throw new Error("usage: write-tokenizer.ts --out DIR < captions.txt");
const chunks: Buffer[] = [];
for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
const { vocab, merges } = trainClipVocabulary(Buffer.concat(chunks).toString("utf8"), 100_000);
await mkdir(values.out, { recursive: true });
await writeFile(join(values.out, "vocab.json"), `${JSON.stringify(vocab, null, 2)}\n`);
await writeFile(join(values.out, "merges.txt"), ["#version: 0.2", ...merges, ""].join("\n"));
console.log(`tokenizer: ${Object.keys(vocab).length} tokens, ${merges.length} merges`);
