// npm run gen:models -- [--size tiny|large] [--endless] [--out FILE]: writes a generated GGUF model
// (--endless: one that never ends an answer by itself, see tiny-llama.ts).
import path from "node:path";
import { parseArgs } from "node:util";
import { TINY_LLAMA_SIZES, type TinyLlamaSize } from "../src/server/models/tiny-llama";
import { writeTinyLlamaGguf } from "../src/server/models/write-tiny-llama";

const { values } = parseArgs({ options: { size: { type: "string", default: "tiny" }, endless: { type: "boolean", default: false }, out: { type: "string" } } });
const size = values.size as TinyLlamaSize;
if (!(size in TINY_LLAMA_SIZES)) {
  process.stderr.write(`--size must be one of ${Object.keys(TINY_LLAMA_SIZES).join(", ")}\n`);
  process.exit(2);
}
const name = `${TINY_LLAMA_SIZES[size].name}${values.endless ? "-endless" : ""}`;
const out = path.resolve(values.out ?? path.join(".cache", "models", `${name}.gguf`));
await writeTinyLlamaGguf(out, size, { endless: values.endless });
process.stdout.write(`wrote ${out}\n`);
