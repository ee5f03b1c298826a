// Writes the part of OpenAI's OpenAPI description that Wisp's tests validate against into the
// repository (test/fixtures/openapi/), so a clone needs nothing outside itself. Run it again with
// a newer description to update: node scripts/openapi/subset-openapi.mjs path/to/openai-openapi.json
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The schemas the tests name; everything they reference comes along. */
export const ROOT_SCHEMAS = [
  "CreateChatCompletionRequest",
  "CreateChatCompletionResponse",
  "CreateChatCompletionStreamResponse",
  "CreateCompletionRequest",
  "CreateCompletionResponse",
  "CreateImageRequest",
  "ImagesResponse",
  "ListModelsResponse",
];

const REF = "#/components/schemas/";

/** Names of the schemas `root` needs, itself included, following every $ref. */
function closure(schemas, roots) {
  const seen = new Set();
  const visit = (node) => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && value.startsWith(REF)) add(value.slice(REF.length));
      else visit(value);
    }
  };
  const add = (name) => {
    if (seen.has(name)) return;
    if (!schemas[name]) throw new Error(`schema ${name} is not in the description`);
    seen.add(name);
    visit(schemas[name]);
  };
  roots.forEach(add);
  return [...seen].sort();
}

const source = process.argv[2];
if (!source) {
  console.error("usage: node scripts/openapi/subset-openapi.mjs path/to/openai-openapi.json");
  process.exit(2);
}
const spec = JSON.parse(readFileSync(source, "utf8"));
const names = closure(spec.components.schemas, ROOT_SCHEMAS);
const subset = {
  openapi: spec.openapi,
  info: {
    ...spec.info,
    "x-wisp-subset": `The ${names.length} schemas reachable from ${ROOT_SCHEMAS.join(", ")}; written by scripts/openapi/subset-openapi.mjs from github.com/openai/openai-openapi (MIT, see LICENSE-openai-openapi).`,
  },
  paths: {},
  components: { schemas: Object.fromEntries(names.map((name) => [name, spec.components.schemas[name]])) },
};
const out = join(dirname(fileURLToPath(import.meta.url)), "../../test/fixtures/openapi/openai-openapi.json");
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, JSON.stringify(subset, null, 1) + "\n");
console.log(`wrote ${out}: ${names.length} schemas`);
