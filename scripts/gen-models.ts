// npm run gen:models -- [--size tiny|large] [--out FILE]: writes a generated GGUF model.
import path from "node:path";
import { parseArgs } from "node:util";
import { TINY_LLAMA_SIZES, type TinyLlamaSize } from "../src/server/models/tiny-llama";
import { writeTinyLlamaGguf } from "../src/server/models/write-tiny-llama";

const { values } = parseArgs({ options: { size: { type: "string", default: "tiny" }, out: { type: "string" } } });
const size = values.size as TinyLlamaSize;
if (!(size in TINY_LLAMA_SIZES)) {
  process.stderr.write(`--size must be one of ${Object.keys(TINY_LLAMA_SIZES).join(", ")}\n`);
  process.exit(2);
}
const out = path.resolve(values.out ?? path.join(".cache", "models", `${TINY_LLAMA_SIZES[size].name}.gguf`));
await writeTinyLlamaGguf(out, size);
process.stdout.write(`wrote ${out}\n`);
