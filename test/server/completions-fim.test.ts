import assert from "node:assert/strict";
import path from "node:path";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";
import { createOpenApiValidator } from "../helpers/openapi";
import { readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const openapi = createOpenApiValidator();
const PSM_MODEL = "wisp-tiny-psm";
const SMP_MODEL = "wisp-tiny-smp";
const PREFIX = "function fibonacci(n: number): number {\n  ";
const SUFFIX = "\n  return fibonacci(n - 1) + fibonacci(n - 2);\n}\n";

describe("POST /v1/completions: fill-in-the-middle layouts and warm-ups", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({
      prepare: async (modelsDir) => {
        await writeTinyLlamaGguf(path.join(modelsDir, `${TEXT_MODEL}.gguf`), "tiny");
        await writeTinyLlamaGguf(path.join(modelsDir, `${PSM_MODEL}.gguf`), "tiny", { fimLayout: "prefix-suffix-middle" });
        await writeTinyLlamaGguf(path.join(modelsDir, `${SMP_MODEL}.gguf`), "tiny", { fimLayout: "suffix-middle-prefix" });
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
    // At a line's start (the cursor's line goes after the middle token: see the next test).
    const atLineStart = "function fibonacci(n: number): number {\n";
    const psm = await complete({ model: PSM_MODEL, prompt: atLineStart, suffix: SUFFIX, max_tokens: 12 });
    const spelled = `<|fim_prefix|>${atLineStart}<|fim_suffix|>${SUFFIX}<|fim_middle|>`;
    assert.equal(psm.body.choices[0]!.text, (await complete({ model: PSM_MODEL, prompt: spelled, max_tokens: 12 })).body.choices[0]!.text);
    const spmAtLineStart = await complete({ model: TEXT_MODEL, prompt: atLineStart, suffix: SUFFIX, max_tokens: 12 });
    assert.equal(spmAtLineStart.body.usage.prompt_tokens, psm.body.usage.prompt_tokens, "the same tokens, in another order");
  });

  it("prefix-suffix-middle: the cursor's line up to the cursor goes after the middle token, so the prompt before it stays while the user types on the line", async () => {
    const { textEngine, registry } = server.deps;
    const model = await textEngine.model(PSM_MODEL, registry.get(PSM_MODEL)!.path);
    const prefix = `${PREFIX}if (n < 2) ret`;
    const spelled = `<|fim_prefix|>function fibonacci(n: number): number {\n<|fim_suffix|>${SUFFIX}<|fim_middle|>  if (n < 2) ret`;
    assert.deepEqual(textEngine.infillPrompt(model, prefix, SUFFIX), textEngine.tokenizePrompt(model, spelled));
    // A line longer than a quarter of the room (minified code) stays in the prefix.
    const long = `const table = [${Array.from({ length: 400 }, (_, i) => i).join(", ")}, `;
    assert.deepEqual(textEngine.infillPrompt(model, long, SUFFIX), textEngine.tokenizePrompt(model, `<|fim_prefix|>${long}<|fim_suffix|>${SUFFIX}<|fim_middle|>`));
  });

  it("a model declaring wisp.fim.layout suffix-middle-prefix gets its middle continuing the prefix, and typing only extends the prompt", async () => {
    const model = await server.deps.textEngine.model(SMP_MODEL, server.deps.registry.get(SMP_MODEL)!.path);
    assert.deepEqual((model.fileInfo.metadata as { wisp?: unknown }).wisp, { fim: { layout: "suffix-middle-prefix" } });
    const spelled = (prefix: string) => `<|fim_prefix|><|fim_suffix|>${SUFFIX}<|fim_middle|>${prefix}`;
    // At a line's start: nothing to heal (see the token healing test), the prompt is the layout's.
    const atLineStart = "function fibonacci(n: number): number {\n";
    const smp = await complete({ model: SMP_MODEL, prompt: atLineStart, suffix: SUFFIX, max_tokens: 12 });
    assert.equal(smp.body.choices[0]!.text, (await complete({ model: SMP_MODEL, prompt: spelled(atLineStart), max_tokens: 12 })).body.choices[0]!.text);
    const psmSpelled = `<|fim_prefix|>${atLineStart}<|fim_suffix|>${SUFFIX}<|fim_middle|>`;
    assert.notEqual(smp.body.choices[0]!.text, (await complete({ model: SMP_MODEL, prompt: psmSpelled, max_tokens: 12 })).body.choices[0]!.text);
    const typed = "if (n < 2) return n;";
    await complete({ model: SMP_MODEL, prompt: PREFIX, suffix: SUFFIX });
    const next = await complete({ model: SMP_MODEL, prompt: PREFIX + typed, suffix: SUFFIX });
    assert.ok(Number(next.headers.get("x-wisp-prompt-tokens-evaluated")) <= model.tokenize(typed, false).length + 3, "only what was typed is evaluated");
  });

  /** A prefix ending in a piece of a longer token, as a cursor in the middle of a word leaves it. */
  const healableCursor = async () => {
    const model = await server.deps.textEngine.model(SMP_MODEL, server.deps.registry.get(SMP_MODEL)!.path);
    const count = model.fileInfo.metadata.tokenizer.ggml.tokens.length;
    const texts = Array.from({ length: count }, (_, t) => model.detokenize([t as never]));
    const found = ["  return Math.ma", "  const result = fib", "  if (n <= 1) ret", "  let val", "  con"].flatMap((line) => {
      const prefix = `function fibonacci(n: number): number {\n${line}`;
      const end = model.detokenize([model.tokenize(prefix, false).at(-1)!]);
      const longer = texts.findIndex((t) => t.startsWith(end) && t.length > end.length && !t.includes("\n"));
      return end.trim() !== "" && longer >= 0 ? [{ prefix, end, longer }] : [];
    })[0];
    assert.ok(found, "one of the prefixes ends in a piece of a longer token of the tiny vocabulary");
    return { model, texts, found };
  };

  it("the answer may finish the token the cursor is in (token healing) where the prompt ends with it; suffix first continues after it", async () => {
    const { texts, found } = await healableCursor();
    // The bias makes the longer token the model's choice wherever it may come.
    const request = { prompt: found.prefix, suffix: SUFFIX, max_tokens: 3, logit_bias: { [found.longer]: 100 } };
    const healed = (await complete({ model: SMP_MODEL, ...request })).body.choices[0]!.text;
    assert.ok(healed.startsWith(texts[found.longer]!.slice(found.end.length)), `${JSON.stringify(found.prefix + healed)} finishes ${JSON.stringify(texts[found.longer])}`);
    const stream = await server.fetch("/v1/completions", { json: { model: SMP_MODEL, temperature: 0, stream: true, ...request } });
    const chunks = (await readSse(stream)).filter((e): e is { choices: { text: string }[] } => e !== "[DONE]");
    assert.equal(chunks.map((c) => c.choices[0]?.text ?? "").join(""), healed, "streamed, the same text");
    // Prefix-suffix-middle ends with the cursor's line too (after the middle token).
    const psm = (await complete({ model: PSM_MODEL, ...request })).body.choices[0]!.text;
    assert.ok(psm.startsWith(texts[found.longer]!.slice(found.end.length)), `${JSON.stringify(found.prefix + psm)} finishes ${JSON.stringify(texts[found.longer])}`);
    const after = (await complete({ model: TEXT_MODEL, ...request })).body.choices[0]!.text;
    assert.ok(after.startsWith(texts[found.longer]!), `${JSON.stringify(after)} comes after ${JSON.stringify(found.end)}`);
  });

  it("token healing holds against a client's logit_bias: the first token still finishes the cursor's token", async () => {
    const { model, texts, found } = await healableCursor();
    // A token that cannot finish it, biased above the one that can: healing lets only the latter through.
    const other = texts.findIndex((t, id) => !t.startsWith(found.end) && /^[a-z]{2,}$/.test(t.trim()) && !model.isEogToken(id as never));
    const request = { prompt: found.prefix, suffix: SUFFIX, max_tokens: 3, logit_bias: { [found.longer]: 50, [other]: 100 } };
    const healed = (await complete({ model: SMP_MODEL, ...request })).body.choices[0]!.text;
    assert.ok(healed.startsWith(texts[found.longer]!.slice(found.end.length)), `${JSON.stringify(found.prefix + healed)} finishes ${JSON.stringify(texts[found.longer])}`);
    // Without healing (suffix first continues after the prompt), the client's bias decides.
    assert.ok((await complete({ model: TEXT_MODEL, ...request })).body.choices[0]!.text.startsWith(texts[other]!));
  });

  it("typing at the cursor evaluates what was typed, not the suffix again (suffix first; prefix-suffix-middle within a line)", async () => {
    const typed = "if (n < 2) return n;";
    const evaluated = async (model: string, more = typed) => {
      await complete({ model, prompt: PREFIX, suffix: SUFFIX });
      const next = await complete({ model, prompt: PREFIX + more, suffix: SUFFIX });
      return Number(next.headers.get("x-wisp-prompt-tokens-evaluated"));
    };
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    const typedTokens = model.tokenize(typed, false).length;
    const suffixTokens = model.tokenize(SUFFIX, false).length;
    // The last token of the old prefix may merge with what follows, and is evaluated again anyway.
    for (const name of [TEXT_MODEL, PSM_MODEL]) {
      const n = await evaluated(name);
      assert.ok(n <= typedTokens + 3, `${name}: ${n} evaluated for ${typedTokens} typed tokens`);
    }
    // A new line moves the end of prefix-suffix-middle's prefix: the suffix after it is evaluated again.
    assert.ok((await evaluated(PSM_MODEL, `${typed}\n  `)) >= suffixTokens, "prefix-suffix-middle after a line break");
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
