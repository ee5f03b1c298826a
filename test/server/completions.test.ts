import assert from "node:assert/strict";
import { EngineBusyError } from "../../src/server/engine-input-error";
import { createOpenApiValidator } from "../helpers/openapi";
import { counted, metricsOf, readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const openapi = createOpenApiValidator();
/**
 * The spec shares one schema between completion bodies and stream chunks, but OpenAI's stream
 * (and the openai SDK) carries finish_reason null until the last chunk: check that, then the rest.
 */
function assertValidCompletionChunk(chunk: { choices: { finish_reason: string | null }[] }): void {
  const last = chunk.choices.map((c) => c.finish_reason);
  last.forEach((reason) => assert.ok(reason === null || reason === "stop" || reason === "length"));
  openapi.assertValid("CreateCompletionResponse", { ...chunk, choices: chunk.choices.map((c) => ({ ...c, finish_reason: c.finish_reason ?? "stop" })) });
}

const PROMPT = "function fibonacci(n: number): number {\n";

describe("POST /v1/completions", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const complete = (body: Record<string, unknown>) =>
    server.client.completions.create({ model: TEXT_MODEL, prompt: PROMPT, temperature: 0, ...body, stream: false } as never);

  it("answers a completion that validates against CreateCompletionResponse, with exact usage", async () => {
    const response = await complete({ max_tokens: 12 });
    openapi.assertValid("CreateCompletionResponse", response);
    assert.equal(response.object, "text_completion");
    assert.equal(response.model, TEXT_MODEL);
    assert.equal(response.choices.length, 1);
    assert.equal(response.choices[0]!.finish_reason, "length");
    assert.ok(response.choices[0]!.text.length > 0);
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    assert.deepEqual(response.usage, {
      prompt_tokens: model.tokenize(PROMPT).length,
      completion_tokens: 12,
      total_tokens: model.tokenize(PROMPT).length + 12,
      // The server's first request: nothing evaluated before.
      prompt_tokens_details: { cached_tokens: 0 },
    });
  });

  it("streams SSE chunks that add up to the non-streamed text, then [DONE], with usage when asked", async () => {
    const whole = await complete({ max_tokens: 20 });
    const response = await server.fetch("/v1/completions", {
      json: { model: TEXT_MODEL, prompt: PROMPT, temperature: 0, max_tokens: 20, stream: true, stream_options: { include_usage: true } },
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get("content-type") ?? "", /text\/event-stream/);
    const events = await readSse(response);
    assert.equal(events.at(-1), "[DONE]");
    const chunks = events.slice(0, -1) as { choices: { text: string; finish_reason: string | null }[]; usage?: unknown }[];
    chunks.forEach(assertValidCompletionChunk);
    const usageChunk = chunks.at(-1)!;
    assert.deepEqual(usageChunk.choices, []);
    assert.deepEqual(counted(usageChunk.usage as typeof whole.usage), counted(whole.usage));
    assert.equal(chunks.map((c) => c.choices[0]?.text ?? "").join(""), whole.choices[0]!.text);
    assert.equal(chunks.at(-2)!.choices[0]!.finish_reason, "length");
  });

  it("streams through the openai SDK, without a usage chunk unless asked", async () => {
    const stream = await server.client.completions.create({ model: TEXT_MODEL, prompt: PROMPT, max_tokens: 8, temperature: 0, stream: true });
    const chunks = [];
    for await (const chunk of stream) chunks.push(chunk);
    assert.ok(chunks.length >= 2);
    assert.ok(chunks.every((c) => c.usage == null));
    assert.equal(chunks.at(-1)!.choices[0]!.finish_reason, "length");
  });

  it("gives the same output for the same seed, and different seeds give different outputs", async () => {
    const a = await complete({ max_tokens: 16, temperature: 1, seed: 7 });
    const b = await complete({ max_tokens: 16, temperature: 1, seed: 7 });
    const c = await complete({ max_tokens: 16, temperature: 1, seed: 8 });
    assert.equal(a.choices[0]!.text, b.choices[0]!.text);
    assert.notEqual(a.choices[0]!.text, c.choices[0]!.text);
  });

  it("without a seed, each choice and each request draws its own (not one per second)", async () => {
    const texts = async () => (await complete({ max_tokens: 16, n: 3, temperature: 1 })).choices.map((c) => c.text);
    const first = await texts();
    assert.equal(new Set(first).size, 3, JSON.stringify(first));
    assert.notDeepEqual(await texts(), first);
  });

  it("negative seeds and seeds of 2^32 and above each give their own output, not seed 0's or seed mod 2^32's", async () => {
    const text = async (seed: number) => (await complete({ max_tokens: 16, temperature: 1, seed })).choices[0]!.text;
    const seeds = [0, 1, -1, -2, 2 ** 32, 2 ** 32 + 1];
    const texts = await Promise.all(seeds.map(text));
    assert.equal(new Set(texts).size, seeds.length, JSON.stringify(texts));
    assert.equal(await text(-1), texts[2], "still reproducible");
  });

  it("top_k 1 and a tiny top_p both reduce sampling to the greedy choice", async () => {
    const greedy = (await complete({ max_tokens: 16 })).choices[0]!.text;
    assert.equal((await complete({ max_tokens: 16, temperature: 1.5, top_k: 1, seed: 3 })).choices[0]!.text, greedy);
    assert.equal((await complete({ max_tokens: 16, temperature: 1.5, top_p: 0.000001, seed: 3 })).choices[0]!.text, greedy);
    assert.notEqual((await complete({ max_tokens: 16, temperature: 1.5, seed: 3 })).choices[0]!.text, greedy);
  });

  it("stops before a stop string (string or list) and does not return it", async () => {
    const text = (await complete({ max_tokens: 30 })).choices[0]!.text;
    const stop = text.slice(10, 13);
    const cut = text.indexOf(stop);
    const single = await complete({ max_tokens: 30, stop });
    assert.equal(single.choices[0]!.text, text.slice(0, cut));
    assert.equal(single.choices[0]!.finish_reason, "stop");
    const listed = await complete({ max_tokens: 30, stop: ["\u0000never", stop] });
    assert.equal(listed.choices[0]!.text, text.slice(0, cut));
    const streamed = await readSse(await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: PROMPT, temperature: 0, max_tokens: 30, stop, stream: true } }));
    const chunks = streamed.slice(0, -1) as { choices: { text: string; finish_reason: string | null }[] }[];
    assert.equal(chunks.map((c) => c.choices[0]!.text).join(""), text.slice(0, cut));
    assert.equal(chunks.at(-1)!.choices[0]!.finish_reason, "stop");
  });

  it("returns n choices generated in parallel sequences, each with its own index", async () => {
    const response = await complete({ max_tokens: 10, n: 2, temperature: 1, seed: 11 });
    openapi.assertValid("CreateCompletionResponse", response);
    assert.deepEqual(response.choices.map((c) => c.index), [0, 1]);
    assert.notEqual(response.choices[0]!.text, response.choices[1]!.text);
    assert.equal(response.usage!.completion_tokens, 20);
  });

  it("serves n above --parallel: the choices take turns on the request's sequences", async () => {
    // The fixture runs --parallel 2; greedy choices from one prompt are identical, seeded ones differ.
    const greedy = await complete({ max_tokens: 8, n: 5 });
    openapi.assertValid("CreateCompletionResponse", greedy);
    assert.deepEqual(greedy.choices.map((c) => c.index), [0, 1, 2, 3, 4]);
    assert.equal(new Set(greedy.choices.map((c) => c.text)).size, 1);
    assert.equal(greedy.choices[0]!.text, (await complete({ max_tokens: 8 })).choices[0]!.text);
    assert.equal(greedy.usage!.completion_tokens, 40);
    const sampled = await complete({ max_tokens: 8, n: 3, temperature: 1, seed: 5 });
    // Choice i is sampled with seed + i, whichever round it ran in.
    const alone = await complete({ max_tokens: 8, n: 1, temperature: 1, seed: 7 });
    assert.equal(sampled.choices[2]!.text, alone.choices[0]!.text);
  });

  it("best_of: answers the n of best_of candidates with the highest log probability per token, and counts them all", async () => {
    const sampling = { max_tokens: 8, temperature: 1, seed: 21 };
    // The same candidates, all returned: choice i samples with seed + i either way.
    const all = await complete({ ...sampling, n: 4, logprobs: 0 });
    const perToken = (c: (typeof all.choices)[number]) => c.logprobs!.token_logprobs!.reduce((a, b) => a + b, 0) / c.logprobs!.token_logprobs!.length;
    const likeliest = all.choices.toSorted((a, b) => perToken(b) - perToken(a)).slice(0, 2);
    assert.ok(new Set(all.choices.map((c) => c.text)).size > 1, "the candidates differ");
    const best = await complete({ ...sampling, n: 2, best_of: 4 });
    openapi.assertValid("CreateCompletionResponse", best);
    assert.deepEqual(best.choices.map((c) => [c.index, c.text, c.logprobs]), likeliest.map((c, i) => [i, c.text, null]));
    assert.equal(best.usage!.completion_tokens, all.usage!.completion_tokens);
    const withLogprobs = await complete({ ...sampling, n: 1, best_of: 4, logprobs: 0 });
    assert.deepEqual(withLogprobs.choices[0]!.logprobs, likeliest[0]!.logprobs);
    for (const [body, message] of [[{ n: 3, best_of: 2 }, /best_of must be greater than or equal to n/], [{ best_of: 3, stream: true }, /cannot be streamed/]] as const) {
      const response = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: PROMPT, max_tokens: 2, ...body } });
      const { error } = (await response.json()) as { error: { message: string; param: string } };
      assert.equal(response.status, 400);
      assert.equal(error.param, "best_of");
      assert.match(error.message, message);
    }
  });

  it("serves a list of prompts as OpenAI does: n choices per prompt, numbered prompt by prompt", async () => {
    const other = "class Stack:\n    def push(self, item):\n";
    const one = (await complete({ max_tokens: 6 })).choices[0]!.text;
    const two = (await complete({ max_tokens: 6, prompt: other })).choices[0]!.text;
    const both = await complete({ max_tokens: 6, prompt: [PROMPT, other], n: 2 });
    openapi.assertValid("CreateCompletionResponse", both);
    assert.deepEqual(both.choices.map((c) => [c.index, c.text]), [[0, one], [1, one], [2, two], [3, two]]);
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    assert.equal(both.usage!.prompt_tokens, model.tokenize(PROMPT).length + model.tokenize(other).length);
    const ids = await complete({ max_tokens: 6, prompt: [[...model.tokenize(PROMPT)], [...model.tokenize(other)]], echo: true });
    assert.deepEqual(ids.choices.map((c) => c.text), [PROMPT + one, other + two]);
    const events = await readSse(await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: [PROMPT, other], temperature: 0, max_tokens: 6, stream: true } }));
    const chunks = events.slice(0, -1) as { choices: { index: number; text: string }[] }[];
    const text = (index: number) => chunks.flatMap((c) => c.choices.filter((x) => x.index === index).map((x) => x.text)).join("");
    assert.deepEqual([text(0), text(1)], [one, two]);
  });

  it("refuses a list with a prompt longer than the context before generating any of it, streamed or not", async () => {
    const long = "function fibonacci(n) { return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2); }\n".repeat(200);
    const before = await metricsOf(server);
    for (const stream of [false, true]) {
      const response = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: [PROMPT, long], n: 2, max_tokens: 40, stream } });
      const body = (await response.json()) as { error: { message: string; param: string; code: string } };
      assert.equal(response.status, 400, `stream ${stream}`);
      assert.equal(body.error.code, "context_length_exceeded");
      assert.equal(body.error.param, "prompt");
      assert.match(body.error.message, /^This model's maximum context length is 2048 tokens\. However, you requested \d+ tokens \(\d+ in prompt\[1\], 1 in the completion\)/);
    }
    const after = await metricsOf(server);
    assert.deepEqual([after.requests, after.completionTokens], [before.requests, before.completionTokens], "nothing was generated for the first prompt");
  });

  it("counts the tokens of the prompts generated before a later one failed, streamed or not", async () => {
    const engine = server.deps.textEngine;
    const served: { promptTokens?: number; completionTokens?: number }[] = [];
    const usage = server.deps.usage;
    const record = usage.served.bind(usage);
    usage.served = (request, used, status) => (served.push(used), record(request, used, status));
    let calls = 0;
    // The second prompt's turn finds the queue full (any failure after the first prompt would do).
    engine.generate = (id, path, request) => (++calls % 2 === 0 ? Promise.reject(new EngineBusyError("queue full")) : Object.getPrototypeOf(engine).generate.call(engine, id, path, request));
    try {
      for (const stream of [false, true]) {
        const response = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: [PROMPT, "class Stack:\n"], max_tokens: 5, temperature: 0, stream } });
        await response.text();
      }
    } finally {
      Reflect.deleteProperty(engine, "generate");
      Reflect.deleteProperty(usage, "served");
    }
    const alone = (await complete({ max_tokens: 5 })).usage!;
    assert.deepEqual(served, [0, 1].map(() => ({ model: TEXT_MODEL, promptTokens: alone.prompt_tokens, completionTokens: alone.completion_tokens })));
  });

  it("applies logit_bias by token id, including forcing end of text", async () => {
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    const [token] = model.tokenize(" return");
    const forced = await complete({ max_tokens: 5, logit_bias: { [String(token)]: 100 } });
    assert.equal(forced.choices[0]!.text, " return".repeat(5));
    const ended = await complete({ max_tokens: 5, logit_bias: { [String(model.tokens.eos)]: 100 } });
    assert.equal(ended.choices[0]!.text, "");
    assert.equal(ended.choices[0]!.finish_reason, "stop");
    assert.equal(ended.usage!.completion_tokens, 0);
  });

  it("frequency and presence penalties change what is generated", async () => {
    const plain = (await complete({ max_tokens: 40 })).choices[0]!.text;
    assert.notEqual((await complete({ max_tokens: 40, frequency_penalty: 2 })).choices[0]!.text, plain);
    assert.notEqual((await complete({ max_tokens: 40, presence_penalty: 2 })).choices[0]!.text, plain);
  });

  it("returns logprobs in OpenAI's completion shape only when asked", async () => {
    const plain = await complete({ max_tokens: 6 });
    assert.equal(plain.choices[0]!.logprobs, null);
    const response = await complete({ max_tokens: 6, logprobs: 3 });
    openapi.assertValid("CreateCompletionResponse", response);
    const lp = response.choices[0]!.logprobs!;
    assert.equal(lp.tokens!.length, 6);
    assert.equal(lp.tokens!.join(""), response.choices[0]!.text);
    assert.equal(response.choices[0]!.text, plain.choices[0]!.text);
    lp.top_logprobs!.forEach((top, i) => {
      const entries = Object.entries(top);
      // Keyed by token text, so tokens that read alike (partial UTF-8) share one entry.
      assert.ok(entries.length >= 1 && entries.length <= 3);
      // At temperature 0 the chosen token is the most likely one.
      assert.equal(Math.max(...entries.map(([, v]) => v)), lp.token_logprobs![i]);
      assert.ok(entries.every(([, v]) => v <= 0));
    });
    assert.deepEqual(lp.text_offset, lp.tokens!.map((_, i) => lp.tokens!.slice(0, i).join("").length));
  });

  it("logprobs stop where a stop string cuts the text: its tokens are not listed, streamed or not", async () => {
    const sampling = { prompt: PROMPT, max_tokens: 24, temperature: 1, seed: 3, logprobs: 1 };
    const whole = (await complete(sampling)).choices[0]!;
    const { tokens, text_offset: offsets } = whole.logprobs! as { tokens: string[]; text_offset: number[] };
    // A token from the middle whose text first appears where it starts: as a stop string, it cuts there.
    const k = tokens.findIndex((t, i) => i >= 2 && t.trim().length >= 2 && !t.includes("\uFFFD") && whole.text.indexOf(t) === offsets[i]);
    assert.ok(k > 0, JSON.stringify(tokens));
    const cut = (await complete({ ...sampling, stop: tokens[k] })).choices[0]!;
    assert.equal(cut.finish_reason, "stop");
    assert.equal(cut.text, whole.text.slice(0, offsets[k]));
    assert.deepEqual(cut.logprobs!.tokens, tokens.slice(0, k));
    assert.deepEqual(cut.logprobs!.text_offset, offsets.slice(0, k));
    const events = await readSse(await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, ...sampling, stop: tokens[k], stream: true } }));
    const streamed = (events.slice(0, -1) as { choices: { logprobs: { tokens: string[] } | null }[] }[]).flatMap((e) => e.choices.flatMap((c) => c.logprobs?.tokens ?? []));
    assert.deepEqual(streamed, tokens.slice(0, k));
  });

  it("counts text_offset in the text's characters when a character is split over tokens", async () => {
    const response = await complete({ max_tokens: 30, logprobs: 1, guided_json: { const: "😀 é and 😀!" } });
    const { text } = response.choices[0]!;
    const lp = response.choices[0]!.logprobs!;
    assert.equal(text, '"😀 é and 😀!"');
    assert.ok(lp.tokens!.includes("\uFFFD"), JSON.stringify(lp.tokens));
    lp.tokens!.forEach((token, i) => {
      if (token !== "\uFFFD") assert.equal(text.slice(lp.text_offset![i], lp.text_offset![i]! + token.length), token, `token ${i}`);
    });
  });

  it("streams logprobs whose text_offset runs on across chunks, as the unstreamed ones, per choice", async () => {
    const body = { model: TEXT_MODEL, prompt: PROMPT, max_tokens: 10, n: 2, temperature: 1, seed: 21, logprobs: 2 };
    const whole = (await (await server.fetch("/v1/completions", { json: body })).json()) as { choices: { index: number; logprobs: { text_offset: number[] } }[] };
    const events = await readSse(await server.fetch("/v1/completions", { json: { ...body, stream: true } }));
    const offsets: number[][] = [[], []];
    for (const chunk of events.slice(0, -1) as { choices: { index: number; logprobs: { text_offset: number[] } | null }[] }[]) {
      for (const c of chunk.choices) offsets[c.index]!.push(...(c.logprobs?.text_offset ?? []));
    }
    assert.deepEqual(offsets, whole.choices.map((c) => c.logprobs.text_offset));
    assert.ok(offsets.every((o) => o.length > 1 && o.at(-1)! > 0));
  });

  it("echoes the prompt, and accepts the prompt as token ids", async () => {
    const plain = await complete({ max_tokens: 6 });
    const echoed = await complete({ max_tokens: 6, echo: true });
    assert.equal(echoed.choices[0]!.text, PROMPT + plain.choices[0]!.text);
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    const byIds = await complete({ max_tokens: 6, prompt: [...model.tokenize(PROMPT)] });
    assert.equal(byIds.choices[0]!.text, plain.choices[0]!.text);
  });

  it("streams an echoed prompt first, then the completion", async () => {
    const plain = await complete({ max_tokens: 6 });
    const events = await readSse(await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: PROMPT, temperature: 0, max_tokens: 6, echo: true, stream: true } }));
    const texts = (events.slice(0, -1) as { choices: { text: string }[] }[]).map((c) => c.choices[0]!.text);
    assert.equal(texts[0], PROMPT);
    assert.equal(texts.join(""), PROMPT + plain.choices[0]!.text);
  });

  it("fills in the middle through the model's FIM tokens when given a suffix", async () => {
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    const suffix = "\n  return n;\n}\n";
    const response = await complete({ max_tokens: 8, suffix });
    openapi.assertValid("CreateCompletionResponse", response);
    const { prefix, suffix: suf, middle } = model.tokens.infill;
    // prompt = <|fim_suffix|> suffix <|fim_prefix|> prefix <|fim_middle|> (the generated model declares suffix first)
    assert.equal(response.usage!.prompt_tokens, model.tokenize(PROMPT).length + model.tokenize(suffix).length + 3);
    assert.ok(prefix !== null && suf !== null && middle !== null);
    const plain = await complete({ max_tokens: 8 });
    assert.notEqual(response.choices[0]!.text, plain.choices[0]!.text);
    // A client that writes the FIM template itself gets the same prompt and answer.
    const spelled = await complete({ max_tokens: 8, prompt: `<|fim_suffix|>${suffix}<|fim_prefix|>${PROMPT}<|fim_middle|>` });
    assert.equal(spelled.choices[0]!.text, response.choices[0]!.text);
    assert.equal(spelled.usage!.prompt_tokens, response.usage!.prompt_tokens);
  });

  it("reuses the evaluated prefix: extending the previous prompt evaluates only the new tokens", async () => {
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    const long = PROMPT.repeat(30);
    const first = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: long, max_tokens: 4, temperature: 0 } });
    assert.equal(first.status, 200);
    const before = await metricsOf(server);
    const extended = `${long}  if (n < 2)`;
    const second = await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: extended, max_tokens: 4, temperature: 0 } });
    assert.equal(second.status, 200);
    const total = model.tokenize(extended).length;
    const evaluated = Number(second.headers.get("x-wisp-prompt-tokens-evaluated"));
    const cached = Number(second.headers.get("x-wisp-prompt-tokens-cached"));
    assert.equal(evaluated + cached, total);
    assert.ok(total > 250 && evaluated <= 8, `evaluated ${evaluated} of ${total}`);
    const after = await metricsOf(server);
    assert.equal(after.promptTokensCached - before.promptTokensCached, cached);
  });
});
