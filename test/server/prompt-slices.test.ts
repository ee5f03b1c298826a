// A request superseded while its prompt is evaluated gives the sequence up after one slice of the
// prompt (PROMPT_SLICE tokens), not after the whole prompt: an editor's newer keystroke then waits
// for a slice at most. The seam: the real batch decoder, watched, and the request's abort signal.
// (That slicing leaves the text unchanged is native-step.test.ts's check against node-llama-cpp.)
import assert from "node:assert/strict";
import type { Token } from "node-llama-cpp";
import { PROMPT_SLICE, type BatchDecoder } from "../../src/server/engines/text/batch-decoder";
import type { ModelLoader } from "../../src/server/engines/text/model-loader";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

describe("prompt evaluation in slices", function () {
  this.timeout(120_000);
  let server: TestServer;

  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("stops evaluating a long prompt within a slice of its abort", async () => {
    const { textEngine, registry } = server.deps;
    const file = registry.get(TEXT_MODEL)!.path;
    const model = await textEngine.model(TEXT_MODEL, file);
    const loader = (textEngine as unknown as { loader: ModelLoader }).loader;
    const decoder = (await loader.load(TEXT_MODEL, file)).decoder as BatchDecoder;
    const prompt = textEngine.tokenizePrompt(model, "const total = values.reduce((sum, v) => sum + v, 0);\n".repeat(60)) as Token[];
    assert.ok(prompt.length > 4 * PROMPT_SLICE, `${prompt.length} tokens`);
    const sampling = { temperature: 0, presencePenalty: 0, frequencyPenalty: 0, logitBias: new Map() };

    const evaluated: number[] = [];
    const controller = new AbortController();
    const decode = decoder.decode.bind(decoder);
    decoder.decode = (sequence, tokens, sampling) => {
      evaluated.push(tokens.length);
      controller.abort(); // the client leaves as soon as the prompt's evaluation has begun
      return decode(sequence, tokens, sampling);
    };
    try {
      await textEngine.generate(TEXT_MODEL, file, { prompt, promptParam: "prompt", n: 1, maxTokens: 4, stop: [], sampling, signal: controller.signal });
    } finally {
      decoder.decode = decode;
    }
    assert.deepEqual(evaluated, [PROMPT_SLICE]);
  });
});
