import assert from "node:assert/strict";
import path from "node:path";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";
import { createOpenApiValidator } from "../helpers/openapi";
import { readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const openapi = createOpenApiValidator();
const PSM_MODEL = "wisp-tiny-psm";
const PREFIX = "function fibonacci(n: number): number {\n  ";
const SUFFIX = "\n  return fibonacci(n - 1) + fibonacci(n - 2);\n}\n";

describe("POST /v1/completions: fill-in-the-middle layouts and warm-ups", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({
      prepare: async (modelsDir) => {
        await writeTinyLlamaGguf(path.join(modelsDir, `${TEXT_MODEL}.gguf`), "tiny");
        await writeTinyLlamaGguf(path.join(modelsDir, `${PSM_MODEL}.gguf`), "tiny", { fimSuffixFirst: false });
      },
    });
  });
  after(() => server.close());

  const complete = async (body: Record<string, unknown>) => {
    const response = await server.fetch("/v1/completions", { json: { temperature: 0, max_tokens: 8, ...body } });
    assert.equal(response.status, 200, await response.clone().text());
    return { headers: response.headers, body: (await response.json()) as { choices: { text: string; finish_reason: string }[]; usage: { prompt_tokens: number; completion_tokens: number } } };
  };
  const spelledPsm = `<|fim_prefix|>${PREFIX}<|fim_suffix|>${SUFFIX}<|fim_middle|>`;
  const spelledSpm = `<|fim_suffix|>${SUFFIX}<|fim_prefix|>${PREFIX}<|fim_middle|>`;

  it("a model declaring wisp.fim.suffix_first (the generated ones do) gets the suffix-first prompt; others prefix-suffix-middle", async () => {
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    assert.deepEqual((model.fileInfo.metadata as { wisp?: unknown }).wisp, { fim: { suffix_first: true } });
    const spm = await complete({ model: TEXT_MODEL, prompt: PREFIX, suffix: SUFFIX, max_tokens: 12 });
    assert.equal(spm.body.choices[0]!.text, (await complete({ model: TEXT_MODEL, prompt: spelledSpm, max_tokens: 12 })).body.choices[0]!.text);
    assert.notEqual(spm.body.choices[0]!.text, (await complete({ model: TEXT_MODEL, prompt: spelledPsm, max_tokens: 12 })).body.choices[0]!.text);
    const psm = await complete({ model: PSM_MODEL, prompt: PREFIX, suffix: SUFFIX, max_tokens: 12 });
    assert.equal(psm.body.choices[0]!.text, (await complete({ model: PSM_MODEL, prompt: spelledPsm, max_tokens: 12 })).body.choices[0]!.text);
    assert.equal(spm.body.usage.prompt_tokens, psm.body.usage.prompt_tokens, "the same tokens, in another order");
  });

  it("suffix first: typing at the cursor evaluates what was typed, not the suffix again", async () => {
    const typed = "if (n < 2) return n;";
    const evaluated = async (model: string) => {
      await complete({ model, prompt: PREFIX, suffix: SUFFIX });
      const next = await complete({ model, prompt: PREFIX + typed, suffix: SUFFIX });
      return Number(next.headers.get("x-wisp-prompt-tokens-evaluated"));
    };
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    const typedTokens = model.tokenize(typed, false).length;
    const suffixTokens = model.tokenize(SUFFIX, false).length;
    const spm = await evaluated(TEXT_MODEL);
    // The last token of the old prefix may merge with what follows, and is evaluated again anyway.
    assert.ok(spm <= typedTokens + 3, `suffix first: ${spm} evaluated for ${typedTokens} typed tokens`);
    assert.ok((await evaluated(PSM_MODEL)) >= spm + suffixTokens, "prefix-suffix-middle evaluates the suffix again");
  });

  it("fits a prompt longer than the context (the prefix keeps its end, the suffix its start) and keeps it stable while typing", async () => {
    // The fixture's context is 2048 tokens; this prefix alone is several times that.
    const longPrefix = Array.from({ length: 600 }, (_, i) => `const value${i} = compute(${i}, "item ${i}");\n`).join("") + PREFIX;
    const longSuffix = SUFFIX.repeat(200);
    const first = await complete({ model: TEXT_MODEL, prompt: longPrefix, suffix: longSuffix, max_tokens: 16 });
    assert.ok(first.body.usage.prompt_tokens <= 2048 - 16, `prompt of ${first.body.usage.prompt_tokens} tokens`);
    assert.ok(first.body.usage.prompt_tokens > 1500, "most of the room is used");
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    const spelled = model.detokenize(model.tokenize(longPrefix, false).slice(-200), false);
    assert.ok(longPrefix.endsWith(spelled.slice(1)), "the prefix's end is kept");
    // Typing a few characters at the cursor re-evaluates only those, not the whole fitted prompt.
    const next = await complete({ model: TEXT_MODEL, prompt: `${longPrefix}if (n`, suffix: longSuffix, max_tokens: 16 });
    assert.ok(Number(next.headers.get("x-wisp-prompt-tokens-evaluated")) <= 6, `evaluated ${next.headers.get("x-wisp-prompt-tokens-evaluated")}`);
  });

  it("max_tokens 0 evaluates the prompt and generates nothing; a request extending it then evaluates only the new tokens", async () => {
    const prompt = PREFIX.repeat(20);
    const warm = await complete({ model: TEXT_MODEL, prompt, max_tokens: 0 });
    openapi.assertValid("CreateCompletionResponse", warm.body);
    assert.deepEqual([warm.body.choices[0]!.text, warm.body.choices[0]!.finish_reason, warm.body.usage.completion_tokens], ["", "length", 0]);
    assert.ok(Number(warm.headers.get("x-wisp-prompt-tokens-evaluated")) > 100, "the prompt was evaluated");
    const next = await complete({ model: TEXT_MODEL, prompt: `${prompt}const a = 1;` });
    const evaluated = Number(next.headers.get("x-wisp-prompt-tokens-evaluated"));
    assert.ok(evaluated <= 8, `evaluated ${evaluated} of ${next.body.usage.prompt_tokens}`);
    assert.ok(next.body.choices[0]!.text.length > 0);
  });

  it("a streamed warm-up ends with an empty, finished choice and [DONE]", async () => {
    const response = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: PREFIX, suffix: SUFFIX, max_tokens: 0, stream: true } });
    assert.equal(response.status, 200);
    const events = await readSse(response);
    assert.equal(events.at(-1), "[DONE]");
    const chunks = events.slice(0, -1) as { choices: { text: string; finish_reason: string | null }[] }[];
    assert.equal(chunks.map((c) => c.choices[0]?.text ?? "").join(""), "");
    assert.equal(chunks.at(-1)?.choices[0]?.finish_reason, "length");
  });
});
