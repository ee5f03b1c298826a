import assert from "node:assert/strict";
import path from "node:path";
import { Ajv } from "ajv";
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
import { CHATML_TEMPLATE } from "../../src/server/models/tiny-llama";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";
import { createOpenApiValidator } from "../helpers/openapi";
import { counted, readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const openapi = createOpenApiValidator();
const MESSAGES = [
  { role: "system" as const, content: "You answer briefly." },
  { role: "user" as const, content: "What does fibonacci(5) return?" },
  { role: "assistant" as const, content: "It returns 5." },
  { role: "user" as const, content: "And fibonacci(6)?" },
];

describe("POST /v1/chat/completions", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  const chat = (body: Record<string, unknown>) =>
    server.client.chat.completions.create({ model: TEXT_MODEL, messages: MESSAGES, temperature: 0, max_tokens: 12, ...body, stream: false } as never);
  const loadedModel = () => server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);

  it("answers a chat.completion that validates against CreateChatCompletionResponse", async () => {
    const response = await chat({});
    openapi.assertValid("CreateChatCompletionResponse", response);
    assert.equal(response.object, "chat.completion");
    const choice = response.choices[0]!;
    assert.equal(choice.message.role, "assistant");
    assert.equal(typeof choice.message.content, "string");
    // OpenAI leaves tool_calls out of an answer without calls; an empty list, sent back in the
    // conversation's next request, is refused there ("empty array. Expected an array with minimum length 1").
    assert.equal("tool_calls" in choice.message, false, JSON.stringify(choice.message));
    assert.equal(choice.finish_reason, "length");
    assert.equal(response.usage!.completion_tokens, 12);
  });

  it("renders the prompt with the GGUF's own ChatML template (exact prompt token count)", async () => {
    const model = await loadedModel();
    assert.equal(model.fileInfo.metadata.tokenizer.chat_template, CHATML_TEMPLATE);
    const rendered = MESSAGES.map((m) => `<|im_start|>${m.role}\n${m.content}<|im_end|>\n`).join("") + "<|im_start|>assistant\n";
    const response = await chat({});
    assert.equal(response.usage!.prompt_tokens, model.tokenize(rendered, true).length);
    assert.equal(response.usage!.total_tokens, response.usage!.prompt_tokens + 12);
  });

  it("streams chat.completion.chunk events (role first, then content, finish, usage, [DONE])", async () => {
    const whole = await chat({});
    const response = await server.fetch("/v1/chat/completions", {
      json: { model: TEXT_MODEL, messages: MESSAGES, temperature: 0, max_tokens: 12, stream: true, stream_options: { include_usage: true } },
    });
    const events = await readSse(response);
    assert.equal(events.at(-1), "[DONE]");
    const chunks = events.slice(0, -1) as { choices: { delta: { role?: string; content?: string }; finish_reason: string | null }[]; usage?: unknown }[];
    chunks.forEach((c) => openapi.assertValid("CreateChatCompletionStreamResponse", c));
    assert.equal(chunks[0]!.choices[0]!.delta.role, "assistant");
    const content = chunks.flatMap((c) => c.choices.map((ch) => ch.delta.content ?? "")).join("");
    assert.equal(content, whole.choices[0]!.message.content);
    assert.equal(chunks.at(-2)!.choices[0]!.finish_reason, "length");
    assert.deepEqual(counted(chunks.at(-1)!.usage as typeof whole.usage), counted(whole.usage));
    assert.ok(chunks.slice(0, -1).every((c) => c.usage === null), "every chunk but the last says usage: null, as the spec has it");
  });

  it("streams n choices through the openai SDK, each with its own index", async () => {
    const stream = await server.client.chat.completions.create({ model: TEXT_MODEL, messages: MESSAGES, max_tokens: 6, n: 2, seed: 5, temperature: 1, stream: true });
    const texts = ["", ""];
    const finishes: (string | null)[] = [null, null];
    for await (const chunk of stream) {
      for (const c of chunk.choices) {
        texts[c.index] += c.delta.content ?? "";
        if (c.finish_reason) finishes[c.index] = c.finish_reason;
      }
    }
    assert.deepEqual(finishes, ["length", "length"]);
    assert.notEqual(texts[0], texts[1]);
  });

  it("honours stop, seed and max_completion_tokens", async () => {
    const text = (await chat({ max_tokens: 30 })).choices[0]!.message.content!;
    const stop = text.slice(8, 11);
    const stopped = await chat({ max_tokens: 30, stop: [stop] });
    assert.equal(stopped.choices[0]!.message.content, text.slice(0, text.indexOf(stop)));
    assert.equal(stopped.choices[0]!.finish_reason, "stop");
    const a = await chat({ temperature: 1, seed: 42 });
    const b = await chat({ temperature: 1, seed: 42 });
    assert.equal(a.choices[0]!.message.content, b.choices[0]!.message.content);
    const short = await chat({ max_tokens: undefined, max_completion_tokens: 3 });
    assert.equal(short.usage!.completion_tokens, 3);
  });

  it("returns logprobs with top_logprobs in the chat shape", async () => {
    const response = await chat({ max_tokens: 5, logprobs: true, top_logprobs: 4 });
    openapi.assertValid("CreateChatCompletionResponse", response);
    const content = response.choices[0]!.logprobs!.content!;
    assert.equal(content.length, 5);
    assert.equal(content.map((c) => c.token).join(""), response.choices[0]!.message.content);
    for (const entry of content) {
      assert.equal(entry.top_logprobs.length, 4);
      assert.equal(entry.top_logprobs[0]!.logprob, entry.logprob);
      // A piece of a character reads U+FFFD; its bytes are its own (see the test below).
      if (!entry.token.includes("\uFFFD")) assert.deepEqual(entry.bytes, [...Buffer.from(entry.token, "utf8")]);
    }
    const without = await chat({ max_tokens: 5 });
    assert.equal(without.choices[0]!.logprobs, null);
  });

  it("gives each token's own bytes, so that a character split over tokens can be joined again", async () => {
    const response = await chat({ max_tokens: 30, logprobs: true, top_logprobs: 2, guided_json: { const: "😀 é" } });
    const { content } = response.choices[0]!.logprobs!;
    assert.ok(content!.some((e) => e.token === "\uFFFD"), JSON.stringify(content));
    assert.equal(Buffer.concat(content!.map((e) => Buffer.from(e.bytes!))).toString("utf8"), response.choices[0]!.message.content);
  });

  it("reports the model's own logprobs whatever the sampling temperature", async () => {
    const first = async (temperature: number) => (await chat({ max_tokens: 1, logprobs: true, top_logprobs: 5, temperature, seed: 9 })).choices[0]!.logprobs!.content![0]!;
    const greedy = await first(0);
    for (const temperature of [0.5, 1, 1.7]) {
      const sampled = await first(temperature);
      assert.deepEqual(sampled.top_logprobs.map((t) => t.token), greedy.top_logprobs.map((t) => t.token));
      sampled.top_logprobs.forEach((t, i) => assert.ok(Math.abs(t.logprob - greedy.top_logprobs[i]!.logprob) < 1e-3, `${temperature}: ${t.logprob} vs ${greedy.top_logprobs[i]!.logprob}`));
    }
    const total = greedy.top_logprobs.reduce((sum, t) => sum + Math.exp(t.logprob), 0);
    assert.ok(total > 0 && total < 1);
  });

  it("streams logprobs with each content chunk, matching the non-streamed ones", async () => {
    const whole = await chat({ max_tokens: 6, logprobs: true, top_logprobs: 2 });
    const stream = await server.client.chat.completions.create({ model: TEXT_MODEL, messages: MESSAGES, temperature: 0, max_tokens: 6, logprobs: true, top_logprobs: 2, stream: true });
    const streamed = [];
    for await (const chunk of stream) streamed.push(...(chunk.choices[0]?.logprobs?.content ?? []));
    assert.deepEqual(streamed, whole.choices[0]!.logprobs!.content);
  });

  it("constrains output to JSON with response_format json_object", async () => {
    const response = await chat({ max_tokens: 200, response_format: { type: "json_object" } });
    const parsed: unknown = JSON.parse(response.choices[0]!.message.content!);
    assert.equal(typeof parsed, "object");
  });

  it("constrains output to a JSON schema with guided_json and response_format json_schema", async () => {
    const schema = {
      type: "object",
      properties: { ok: { type: "boolean" }, size: { enum: ["small", "large"] } },
      required: ["ok", "size"],
      additionalProperties: false,
    };
    for (const extra of [{ guided_json: schema }, { response_format: { type: "json_schema", json_schema: { name: "answer", schema } } }]) {
      const response = await chat({ max_tokens: 60, temperature: 1, seed: 1, ...extra });
      const parsed = JSON.parse(response.choices[0]!.message.content!) as { ok: unknown; size: unknown };
      assert.equal(typeof parsed.ok, "boolean");
      assert.ok(parsed.size === "small" || parsed.size === "large");
      assert.deepEqual(Object.keys(parsed).sort(), ["ok", "size"]);
      assert.equal(response.choices[0]!.finish_reason, "stop");
    }
  });

  it("ends a json_schema answer at its closing brace: no trailing newlines billed, stop within a tight max_tokens", async () => {
    const schema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false };
    const response_format = { type: "json_schema" as const, json_schema: { name: "answer", schema } };
    for (const seed of [1, 2, 3]) {
      const loose = await chat({ max_tokens: 60, temperature: 1, seed, response_format });
      const content = loose.choices[0]!.message.content!;
      assert.ok(content.endsWith("}"), JSON.stringify(content));
      // Room for the answer's tokens and the end of generation after them, none for newlines.
      const tight = await chat({ max_tokens: loose.usage!.completion_tokens + 1, temperature: 1, seed, response_format });
      assert.equal(tight.choices[0]!.message.content, content);
      assert.equal(tight.choices[0]!.finish_reason, "stop");
    }
  });

  it("reads anyOf in a guided_json schema as a choice of its branches, not as null", async () => {
    const schema = {
      anyOf: [
        { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"], additionalProperties: false },
        { type: "object", properties: { size: { enum: ["small", "large"] } }, required: ["size"], additionalProperties: false },
      ],
    };
    const validate = new Ajv({ strict: false }).compile(schema);
    const response = await chat({ max_tokens: 60, temperature: 1, seed: 1, guided_json: schema });
    const parsed: unknown = JSON.parse(response.choices[0]!.message.content!);
    assert.notEqual(parsed, null);
    assert.ok(validate(parsed), JSON.stringify(validate.errors));
    assert.equal(response.choices[0]!.finish_reason, "stop");
  });

  it("follows $refs outside $defs: the openai SDK's zodResponseFormat with a reused object parses, and a $ref to nothing is a 400", async () => {
    // zod-to-json-schema writes the second use of Point as {"$ref": "#/definitions/shape_properties_start"}.
    const Point = z.object({ x: z.number().int(), y: z.number().int() });
    const response_format = zodResponseFormat(z.object({ start: Point, end: Point }), "shape");
    assert.match(JSON.stringify(response_format.json_schema.schema), /"\$ref":"#\/definitions\//);
    for (const seed of [1, 2]) {
      const response = await server.client.chat.completions.parse({ model: TEXT_MODEL, messages: MESSAGES, max_tokens: 200, temperature: 1, seed, response_format });
      const { end } = response.choices[0]!.message.parsed!;
      assert.ok(Number.isInteger(end.x) && Number.isInteger(end.y), JSON.stringify(response.choices[0]!.message.content));
    }
    // A path into the schema, as other generators write it.
    const byPath = { type: "object", properties: { a: { enum: ["yes", "no"] }, b: { $ref: "#/properties/a" } }, required: ["a", "b"], additionalProperties: false };
    const answer = await chat({ max_tokens: 60, temperature: 1, seed: 1, guided_json: byPath });
    assert.ok(["yes", "no"].includes((JSON.parse(answer.choices[0]!.message.content!) as { b: unknown }).b as string), answer.choices[0]!.message.content!);
    const error = await chat({ guided_json: { type: "object", properties: { a: { $ref: "#/$defs/nope" } } } }).catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.param, "guided_json");
    assert.match(error.message, /\$ref '#\/\$defs\/nope' points to nothing in the schema/);
  });

  it("reads an assistant's refusal parts as its text, and refuses image_url parts by name", async () => {
    const refusal = "I cannot help with that.";
    const withRefusal = await chat({ messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: [{ type: "refusal", refusal }] }, { role: "user", content: "ok" }] });
    const withText = await chat({ messages: [{ role: "user", content: "Hi" }, { role: "assistant", content: refusal }, { role: "user", content: "ok" }] });
    assert.equal(withRefusal.usage!.prompt_tokens, withText.usage!.prompt_tokens);
    const image = { type: "image_url" as const, image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };
    const error = await chat({ messages: [{ role: "user", content: [{ type: "text", text: "What is this?" }, image] }] }).catch((e: unknown) => e);
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.param, "messages");
    assert.equal(error.message, `400 model ${TEXT_MODEL} takes text only: image_url content parts are not supported`);
  });

  it("accepts content as text parts and the developer role", async () => {
    const asParts = await chat({ messages: [{ role: "developer", content: "Be brief." }, { role: "user", content: [{ type: "text", text: "Hi" }, { type: "text", text: " there" }] }] });
    const asText = await chat({ messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hi there" }] });
    assert.equal(asParts.choices[0]!.message.content, asText.choices[0]!.message.content);
    assert.equal(asParts.usage!.prompt_tokens, asText.usage!.prompt_tokens);
  });
});

describe("POST /v1/chat/completions on a model whose template refuses a conversation", function () {
  this.timeout(60_000);
  // Gemma's template as published: roles must alternate, starting with the user.
  const GEMMA_TEMPLATE =
    "{{ bos_token }}{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}{% for message in messages %}{% if (message['role'] == 'user') != (loop.index0 % 2 == 0) %}{{ raise_exception('Conversation roles must alternate user/assistant/user/assistant/...') }}{% endif %}{% if (message['role'] == 'assistant') %}{% set role = 'model' %}{% else %}{% set role = message['role'] %}{% endif %}{{ '<start_of_turn>' + role + '\\n' + message['content'] | trim + '<end_of_turn>\\n' }}{% endfor %}{% if add_generation_prompt %}{{'<start_of_turn>model\\n'}}{% endif %}";
  let server: TestServer;
  before(async () => {
    server = await startServer({
      prepare: (dir) => writeTinyLlamaGguf(path.join(dir, "gemma-like.gguf"), "tiny", { extra: new Map([["tokenizer.chat_template", { type: "string", value: GEMMA_TEMPLATE }]]) }),
    });
  });
  after(() => server.close());

  it("answers a conversation opened by an assistant greeting (a chat UI's) with a 400 giving the template's reason, not an internal server error", async () => {
    const create = (messages: OpenAI.Chat.ChatCompletionMessageParam[]) => server.client.chat.completions.create({ model: "gemma-like", messages, max_tokens: 2 });
    const error = await create([{ role: "assistant", content: "Hello! How can I help?" }, { role: "user", content: "Hi" }]).then(() => undefined, (e: unknown) => e);
    assert.ok(error instanceof OpenAI.BadRequestError, String(error));
    assert.equal(error.param, "messages");
    assert.equal(error.message, "400 the model's chat template refused these messages: Conversation roles must alternate user/assistant/user/assistant/...");
    // The model itself serves: the same words, the user first, are answered.
    const answer = await create([{ role: "user", content: "Hi" }]);
    assert.equal(answer.choices.length, 1);
  });
});
