import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { trainBpe } from "../../src/server/models/bpe-trainer";
import { TRAINING_CORPUS } from "../../src/server/models/corpus";
import { blockFormats, TensorType, tensorTypeNames } from "../../src/server/models/gguf-writer";
import { encodeLlamaGguf, llamaVocabulary, type LlamaSpec } from "../../src/server/models/llama-gguf";
import { randomWeights, TINY_LLAMA_SIZES } from "../../src/server/models/tiny-llama";
import { startServer, type TestServer } from "./server-fixture";

/**
 * The block formats the project writes (ggml-blocks.ts) as llama.cpp reads them: a model in q8_0,
 * q5_0 or q4_0 completes as an f32 model holding the values the project's own reading of those
 * blocks gives. A layout llama.cpp read otherwise (a nibble order, the fifth bits, the scale) would
 * change every weight, and with it the model's answers.
 */
describe("quantized weights, through the server's engine", function () {
  this.timeout(120_000);
  const formats = [TensorType.Q8_0, TensorType.Q5_0, TensorType.Q4_0];
  const prompts = ["function add(a, b) {\n  return", "import os\n\ndef main():\n", "const items = [1, 2, 3].map((x) =>", "SELECT name FROM users WHERE"];
  let server: TestServer;

  before(async () => {
    const spec: LlamaSpec = { ...TINY_LLAMA_SIZES.tiny, name: "quantized" };
    const vocabulary = llamaVocabulary(trainBpe(TRAINING_CORPUS, TINY_LLAMA_SIZES.tiny.maxMerges));
    server = await startServer({
      prepare: async (modelsDir) => {
        await mkdir(modelsDir, { recursive: true });
        for (const type of formats) {
          const format = blockFormats.get(type)!;
          const name = tensorTypeNames[type];
          // Every matrix in the format, edges too; norms stay f32 in both files.
          await writeFile(path.join(modelsDir, `${name}.gguf`), encodeLlamaGguf({ ...spec, tensorType: type }, vocabulary, randomWeights));
          const readBack = (tensor: string, dims: readonly number[], norm: boolean) => {
            const values = randomWeights(tensor, dims, norm);
            return norm ? values : format.dequantize(format.quantize(values));
          };
          await writeFile(path.join(modelsDir, `${name}-as-f32.gguf`), encodeLlamaGguf({ ...spec, tensorType: TensorType.F32 }, vocabulary, readBack));
        }
      },
    });
  });
  after(() => server?.close());

  /** The first token's five likeliest, as the server reports them. */
  async function firstToken(model: string, prompt: string): Promise<Record<string, number>> {
    const response = await server.client.completions.create({ model, prompt, max_tokens: 1, temperature: 0, logprobs: 5 });
    return response.choices[0]!.logprobs!.top_logprobs![0]!;
  }

  for (const type of formats) {
    const name = tensorTypeNames[type];
    it(`${name}: the same likeliest next tokens, at the same log-probabilities, as f32 weights of the values read back here`, async () => {
      for (const prompt of prompts) {
        const quantized = await firstToken(name, prompt);
        const reference = await firstToken(`${name}-as-f32`, prompt);
        // Keyed by text (partial UTF-8 shares "�"), and a near tie may swap the fifth: the tokens both list.
        const shared = Object.keys(reference).filter((token) => token in quantized);
        const worst = Math.max(...shared.map((token) => Math.abs(quantized[token]! - reference[token]!)));
        assert.ok(shared.length >= 2, `${JSON.stringify(prompt)}: ${Object.keys(quantized)} against ${Object.keys(reference)}`);
        // Measured: at most 0.045 apart (llama.cpp rounds the activations to 8 bits for these
        // formats); against the unquantized weights q4_0 is up to 0.7 apart, a half-block swap 1 to 1.9.
        assert.ok(worst <= 0.1, `${JSON.stringify(prompt)}: log-probabilities ${worst.toFixed(3)} apart`);
      }
    });
  }
});
