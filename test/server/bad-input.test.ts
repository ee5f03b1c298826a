import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const NO_FIM_MODEL = "wisp-tiny-nofim";
const IMAGE_MODEL = "tiny-sd";

/** A models dir with, besides the default, a GGUF without FIM tokens and an ONNX pipeline folder. */
async function prepareModels(modelsDir: string): Promise<void> {
  await writeTinyLlamaGguf(path.join(modelsDir, `${NO_FIM_MODEL}.gguf`), "tiny", { fim: false });
  await writeTinyLlamaGguf(path.join(modelsDir, `${TEXT_MODEL}.gguf`), "tiny");
  // The registry only looks at the layout; the image routes are tested with real files elsewhere.
  for (const part of ["text_encoder", "unet", "vae_decoder"]) {
    await mkdir(path.join(modelsDir, IMAGE_MODEL, part), { recursive: true });
    await writeFile(path.join(modelsDir, IMAGE_MODEL, part, "model.onnx"), "");
  }
}

const chat = (extra: Record<string, unknown>) => ({ model: TEXT_MODEL, messages: [{ role: "user", content: "hi" }], max_tokens: 2, ...extra });
const completion = (extra: Record<string, unknown>) => ({ model: TEXT_MODEL, prompt: "hi", max_tokens: 2, ...extra });
const CHAT = "/v1/chat/completions";
const COMPLETIONS = "/v1/completions";
const longText = "function fibonacci(n) { return n < 2 ? n : fibonacci(n - 1) + fibonacci(n - 2); }\n".repeat(200);

interface Case {
  name: string;
  path: string;
  /** A JSON value to send, or a raw string body. */
  body: unknown;
  raw?: boolean;
  contentType?: string;
  status: number;
  type: string;
  param: string | null;
  message?: RegExp;
  code?: string;
}

const cases: Case[] = [
  { name: "invalid JSON", path: CHAT, body: '{"model": "wisp-tiny",', raw: true, status: 400, type: "invalid_request_error", param: null },
  { name: "body is a JSON array", path: CHAT, body: [1, 2], status: 400, type: "invalid_request_error", param: null },
  { name: "unsupported content type", path: CHAT, body: "<x/>", raw: true, contentType: "application/xml", status: 415, type: "invalid_request_error", param: null },
  { name: "JSON sent as text/plain (fetch's type for a string body)", path: CHAT, body: JSON.stringify(chat({})), raw: true, contentType: "text/plain;charset=UTF-8", status: 415, type: "invalid_request_error", param: null, message: /Content-Type: application\/json/ },
  { name: "missing model", path: CHAT, body: { messages: [{ role: "user", content: "hi" }] }, status: 400, type: "invalid_request_error", param: "model" },
  { name: "model is a number", path: CHAT, body: chat({ model: 3 }), status: 400, type: "invalid_request_error", param: "model" },
  { name: "unknown model (chat)", path: CHAT, body: chat({ model: "nope" }), status: 404, type: "invalid_request_error", param: "model" },
  { name: "unknown model (completions)", path: COMPLETIONS, body: completion({ model: "nope" }), status: 404, type: "invalid_request_error", param: "model" },
  { name: "image model on chat", path: CHAT, body: chat({ model: IMAGE_MODEL }), status: 400, type: "invalid_request_error", param: "model" },
  { name: "image model on completions", path: COMPLETIONS, body: completion({ model: IMAGE_MODEL }), status: 400, type: "invalid_request_error", param: "model" },
  { name: "missing messages", path: CHAT, body: { model: TEXT_MODEL }, status: 400, type: "invalid_request_error", param: "messages" },
  { name: "empty messages", path: CHAT, body: chat({ messages: [] }), status: 400, type: "invalid_request_error", param: "messages" },
  { name: "messages not a list", path: CHAT, body: chat({ messages: "hi" }), status: 400, type: "invalid_request_error", param: "messages" },
  { name: "unknown role", path: CHAT, body: chat({ messages: [{ role: "wizard", content: "hi" }] }), status: 400, type: "invalid_request_error", param: "messages" },
  { name: "message without content", path: CHAT, body: chat({ messages: [{ role: "user" }] }), status: 400, type: "invalid_request_error", param: "messages" },
  { name: "negative max_tokens", path: CHAT, body: chat({ max_tokens: -5 }), status: 400, type: "invalid_request_error", param: "max_tokens" },
  { name: "zero max_tokens for a chat (completions take 0: a warm-up)", path: CHAT, body: chat({ max_tokens: 0 }), status: 400, type: "invalid_request_error", param: "max_tokens" },
  { name: "negative max_tokens for a completion", path: COMPLETIONS, body: completion({ max_tokens: -1 }), status: 400, type: "invalid_request_error", param: "max_tokens" },
  { name: "max_tokens as a string", path: COMPLETIONS, body: completion({ max_tokens: "10" }), status: 400, type: "invalid_request_error", param: "max_tokens" },
  { name: "temperature above 2", path: CHAT, body: chat({ temperature: 2.5 }), status: 400, type: "invalid_request_error", param: "temperature" },
  { name: "negative temperature", path: COMPLETIONS, body: completion({ temperature: -1 }), status: 400, type: "invalid_request_error", param: "temperature" },
  { name: "top_p above 1", path: CHAT, body: chat({ top_p: 1.5 }), status: 400, type: "invalid_request_error", param: "top_p" },
  { name: "top_k not a number", path: COMPLETIONS, body: completion({ top_k: "a" }), status: 400, type: "invalid_request_error", param: "top_k" },
  { name: "n = 0", path: CHAT, body: chat({ n: 0 }), status: 400, type: "invalid_request_error", param: "n" },
  { name: "huge n", path: CHAT, body: chat({ n: 1000 }), status: 400, type: "invalid_request_error", param: "n" },
  { name: "n above the most choices", path: COMPLETIONS, body: completion({ n: 17 }), status: 400, type: "invalid_request_error", param: "n" },
  { name: "top_logprobs above 20", path: CHAT, body: chat({ logprobs: true, top_logprobs: 21 }), status: 400, type: "invalid_request_error", param: "top_logprobs" },
  { name: "top_logprobs without logprobs", path: CHAT, body: chat({ top_logprobs: 2 }), status: 400, type: "invalid_request_error", param: "top_logprobs" },
  { name: "completions logprobs above 20", path: COMPLETIONS, body: completion({ logprobs: 50 }), status: 400, type: "invalid_request_error", param: "logprobs" },
  { name: "stop is a number", path: CHAT, body: chat({ stop: 5 }), status: 400, type: "invalid_request_error", param: "stop" },
  { name: "stop list holds a number", path: COMPLETIONS, body: completion({ stop: ["a", 5] }), status: 400, type: "invalid_request_error", param: "stop" },
  { name: "presence_penalty above 2", path: CHAT, body: chat({ presence_penalty: 3 }), status: 400, type: "invalid_request_error", param: "presence_penalty" },
  { name: "frequency_penalty below -2", path: COMPLETIONS, body: completion({ frequency_penalty: -3 }), status: 400, type: "invalid_request_error", param: "frequency_penalty" },
  { name: "logit_bias key not a token id", path: CHAT, body: chat({ logit_bias: { hello: 5 } }), status: 400, type: "invalid_request_error", param: "logit_bias" },
  { name: "logit_bias value above 100", path: CHAT, body: chat({ logit_bias: { "5": 200 } }), status: 400, type: "invalid_request_error", param: "logit_bias" },
  { name: "logit_bias token outside the vocabulary", path: COMPLETIONS, body: completion({ logit_bias: { "99999999": 1 } }), status: 400, type: "invalid_request_error", param: "logit_bias" },
  { name: "stream not a boolean", path: CHAT, body: chat({ stream: "yes" }), status: 400, type: "invalid_request_error", param: "stream" },
  { name: "stream_options without stream (OpenAI refuses it)", path: CHAT, body: chat({ stream_options: { include_usage: true } }), status: 400, type: "invalid_request_error", param: "stream_options", message: /only allowed when 'stream' is enabled/ },
  { name: "stream_options with stream: false (completions)", path: COMPLETIONS, body: completion({ stream: false, stream_options: { include_usage: true } }), status: 400, type: "invalid_request_error", param: "stream_options", message: /only allowed when 'stream' is enabled/ },
  { name: "audio output asked (modalities)", path: CHAT, body: chat({ modalities: ["text", "audio"] }), status: 400, type: "invalid_request_error", param: "modalities", message: /output text only/ },
  { name: "audio output asked (audio)", path: CHAT, body: chat({ audio: { voice: "alloy", format: "wav" } }), status: 400, type: "invalid_request_error", param: "audio", message: /output text only/ },
  { name: "seed not an integer", path: COMPLETIONS, body: completion({ seed: 1.5 }), status: 400, type: "invalid_request_error", param: "seed" },
  { name: "missing prompt", path: COMPLETIONS, body: { model: TEXT_MODEL }, status: 400, type: "invalid_request_error", param: "prompt" },
  { name: "more than 16 prompts", path: COMPLETIONS, body: completion({ prompt: Array(17).fill("a") }), status: 400, type: "invalid_request_error", param: "prompt" },
  { name: "an empty prompt in a list", path: COMPLETIONS, body: completion({ prompt: ["a", []] }), status: 400, type: "invalid_request_error", param: "prompt" },
  { name: "echo with logprobs", path: COMPLETIONS, body: completion({ echo: true, logprobs: 2 }), status: 400, type: "invalid_request_error", param: "logprobs", message: /not supported/ },
  { name: "empty prompt", path: COMPLETIONS, body: completion({ prompt: "" }), status: 400, type: "invalid_request_error", param: "prompt" },
  { name: "prompt token id outside the vocabulary", path: COMPLETIONS, body: completion({ prompt: [1, 99999999] }), status: 400, type: "invalid_request_error", param: "prompt" },
  { name: "prompt longer than the context", path: COMPLETIONS, body: completion({ prompt: longText }), status: 400, type: "invalid_request_error", param: "prompt", message: /^This model's maximum context length is 2048 tokens\. However, you requested \d+ tokens/, code: "context_length_exceeded" },
  { name: "chat longer than the context", path: CHAT, body: chat({ messages: [{ role: "user", content: longText }] }), status: 400, type: "invalid_request_error", param: "messages", message: /^This model's maximum context length is 2048 tokens\. However, you requested \d+ tokens/, code: "context_length_exceeded" },
  { name: "suffix on a model without FIM tokens", path: COMPLETIONS, body: completion({ model: NO_FIM_MODEL, suffix: "}" }), status: 400, type: "invalid_request_error", param: "suffix", message: /fill-in-the-middle/ },
  { name: "guided_json string that is not JSON", path: CHAT, body: chat({ guided_json: "{nope" }), status: 400, type: "invalid_request_error", param: "guided_json" },
  { name: "response_format of an unknown type", path: CHAT, body: chat({ response_format: { type: "xml" } }), status: 400, type: "invalid_request_error", param: "response_format" },
  { name: "json_schema response_format without a schema", path: CHAT, body: chat({ response_format: { type: "json_schema", json_schema: { name: "x" } } }), status: 400, type: "invalid_request_error", param: "response_format" },
  { name: "json_schema response_format whose schema is not one", path: CHAT, body: chat({ response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "foo" } } } }), status: 400, type: "invalid_request_error", param: "response_format", message: /^response_format\.json_schema\.schema is not a valid JSON schema/ },
  { name: "json_schema response_format whose properties are not schemas (completions)", path: COMPLETIONS, body: completion({ response_format: { type: "json_schema", json_schema: { name: "x", schema: { type: "object", properties: 5 } } } }), status: 400, type: "invalid_request_error", param: "response_format", message: /not a valid JSON schema/ },
  { name: "guided_json that is not a schema", path: CHAT, body: chat({ guided_json: { type: "wat" } }), status: 400, type: "invalid_request_error", param: "guided_json", message: /^guided_json is not a valid JSON schema/ },
  { name: "json_schema response_format the grammar cannot follow", path: CHAT, body: chat({ response_format: { type: "json_schema", json_schema: { name: "x", schema: { const: { a: 1 } } } } }), status: 400, type: "invalid_request_error", param: "response_format", message: /unsupported JSON schema/ },
  { name: "json_schema response_format the grammar cannot follow (completions)", path: COMPLETIONS, body: completion({ response_format: { type: "json_schema", json_schema: { name: "x", schema: { const: { a: 1 } } } } }), status: 400, type: "invalid_request_error", param: "response_format", message: /unsupported JSON schema/ },
  { name: "guided_json the grammar cannot follow", path: CHAT, body: chat({ guided_json: { const: { a: 1 } } }), status: 400, type: "invalid_request_error", param: "guided_json", message: /unsupported JSON schema/ },
  { name: "body over the size limit", path: COMPLETIONS, body: completion({ prompt: "x".repeat(5 * 1024 * 1024) }), status: 413, type: "invalid_request_error", param: null },
  { name: "unknown route", path: "/v1/engines", body: {}, status: 404, type: "invalid_request_error", param: null },
  { name: "stop list holding an empty string names the item, not 'must be string'", path: CHAT, body: chat({ stop: ["a", ""] }), status: 400, type: "invalid_request_error", param: "stop", message: /^stop\[1\] must NOT have fewer than 1 characters$/ },
  { name: "prompt list holding an empty token list names the item", path: COMPLETIONS, body: completion({ prompt: [[]] }), status: 400, type: "invalid_request_error", param: "prompt", message: /^prompt\[0\] .*must NOT have fewer than 1 items$/ },
  { name: "embeddings (LangChain's, Continue's) say the server does not have them and what it serves", path: "/v1/embeddings", body: { model: TEXT_MODEL, input: "hi" }, status: 404, type: "invalid_request_error", param: null, message: /^POST \/v1\/embeddings: this server does not implement OpenAI's embeddings API\. It serves GET \/v1\/models, POST \/v1\/completions, POST \/v1\/chat\/completions and POST \/v1\/images\/generations$/, code: "unknown_route" },
  { name: "the Responses API says to use Chat Completions", path: "/v1/responses", body: { model: TEXT_MODEL, input: "hi" }, status: 404, type: "invalid_request_error", param: null, message: /does not implement OpenAI's Responses API: set the client to the Chat Completions API \(POST \/v1\/chat\/completions\)/ },
  { name: "audio transcriptions say the server has no audio API", path: "/v1/audio/transcriptions", body: {}, status: 404, type: "invalid_request_error", param: null, message: /does not implement OpenAI's audio API/ },
  { name: "an API path without /v1 (a base URL that lacks it) says to end the base URL with /v1", path: "/chat/completions", body: chat({}), status: 404, type: "invalid_request_error", param: null, message: /^no route POST \/chat\/completions: the API is under \/v1 \(POST \/v1\/chat\/completions\): end the client's base URL with \/v1$/ },
  { name: "moderations say the server has none", path: "/v1/moderations", body: { input: "hi" }, status: 404, type: "invalid_request_error", param: null, message: /does not implement OpenAI's moderations API/ },
];

describe("bad input gets an OpenAI-shaped error naming the offending param", function () {
  this.timeout(60_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({ prepare: prepareModels });
  });
  after(() => server.close());

  it(`has a table of at least 30 cases (${cases.length})`, () => assert.ok(cases.length >= 30));

  for (const c of cases) {
    it(`${c.name} -> ${c.status} ${c.param ?? ""}`, async () => {
      const response = await server.fetch(c.path, {
        method: "POST",
        body: c.raw ? (c.body as string) : JSON.stringify(c.body),
        headers: c.contentType ? { "content-type": c.contentType } : {},
      });
      const body = (await response.json()) as { error: { message: string; type: string; param: string | null; code: string | null } };
      assert.equal(response.status, c.status, JSON.stringify(body));
      assert.deepEqual(Object.keys(body.error).sort(), ["code", "message", "param", "type"]);
      assert.equal(body.error.type, c.type);
      assert.equal(body.error.param, c.param, body.error.message);
      assert.ok(body.error.message.length > 0);
      if (c.message) assert.match(body.error.message, c.message);
      if (c.code) assert.equal(body.error.code, c.code);
    });
  }

  it("a route asked with the wrong method is 405 naming the right one (Allow too), not 'no route'", async () => {
    for (const [method, url, allow] of [["GET", CHAT, "POST"], ["PUT", `${COMPLETIONS}?x=1`, "POST"], ["POST", "/v1/models", "GET"], ["DELETE", "/v1/models/wisp-tiny", "GET"]] as const) {
      const response = await server.fetch(url, method === "GET" ? {} : { method, body: "{}" });
      const { error } = (await response.json()) as { error: { message: string; type: string; code: string } };
      assert.equal(response.status, 405, `${method} ${url}: ${error.message}`);
      assert.equal(response.headers.get("allow"), allow);
      assert.equal(error.message, `${method} is not allowed on ${url.split("?")[0]}: use ${allow}`);
      assert.equal(error.code, "method_not_allowed");
    }
  });

  it("reads a JSON body sent compressed (Content-Encoding gzip, deflate, br), within the body limit once decompressed", async () => {
    const json = Buffer.from(JSON.stringify(chat({})));
    const post = (body: Buffer, encoding: string, url = CHAT) =>
      fetch(`${server.origin}${url}`, { method: "POST", body: new Uint8Array(body), headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", "content-encoding": encoding } });
    for (const [encoding, body] of [["gzip", gzipSync(json)], ["deflate", deflateSync(json)], ["br", brotliCompressSync(json)]] as const) {
      const response = await post(body, encoding);
      const answer = (await response.json()) as { choices?: unknown[]; error?: { message: string } };
      assert.equal(response.status, 200, `${encoding}: ${answer.error?.message}`);
      assert.equal(answer.choices?.length, 1);
    }
    const errorOf = async (response: Response) => ({ status: response.status, ...((await response.json()) as { error: { message: string; code: string } }).error });
    const broken = await errorOf(await post(Buffer.from("not gzip at all"), "gzip"));
    assert.equal(broken.status, 400);
    assert.match(broken.message, /^the body is not valid gzip/);
    const unknown = await errorOf(await post(gzipSync(json), "zstd"));
    assert.equal(unknown.status, 415);
    assert.match(unknown.message, /^Content-Encoding 'zstd' is not supported/);
    // 6 MiB of JSON in about 6 KB of gzip: the 4 MiB limit holds for what it expands to.
    const bomb = await errorOf(await post(gzipSync(Buffer.from(JSON.stringify(completion({ prompt: "a".repeat(6 * 1024 * 1024) })))), "gzip", COMPLETIONS));
    assert.equal(bomb.status, 413);
    // A compressed upload over the limit as sent gets its 413 once it has been read, not at the
    // request timeout (30 s) with the upload held paused behind its decompressor.
    const incompressible = gzipSync(Buffer.from(JSON.stringify(completion({ prompt: randomBytes(6 * 1024 * 1024).toString("base64") }))), { level: 1 });
    assert.ok(incompressible.length > 4 * 1024 * 1024);
    const large = await fetch(`${server.origin}${COMPLETIONS}`, {
      method: "POST",
      body: new Uint8Array(incompressible),
      headers: { authorization: `Bearer ${server.key}`, "content-type": "application/json", "content-encoding": "gzip" },
      signal: AbortSignal.timeout(15_000),
    });
    assert.equal(large.status, 413);
  });

  it("a base URL with a slash too many (//v1, /v1//chat) or a path ending in / still reaches the route", async () => {
    for (const url of ["//v1/models", "/v1/models/", `/v1/models/${TEXT_MODEL}/`]) {
      const response = await server.fetch(url);
      assert.equal(response.status, 200, `${url}: ${await response.text()}`);
    }
    for (const url of ["//v1/chat/completions", "/v1//chat/completions", "/v1/chat/completions/", "/v1/chat/completions/?x=1"]) {
      const response = await server.fetch(url, { json: chat({}) });
      const answer = (await response.json()) as { object?: string; error?: { message: string } };
      assert.equal(response.status, 200, `${url}: ${answer.error?.message}`);
      assert.equal(answer.object, "chat.completion");
    }
    const unknown = await server.fetch("//v1/nothing/");
    assert.equal(unknown.status, 404);
  });

  it("ignores unknown fields without harm, and still serves after all of the above", async () => {
    const response = await server.fetch(CHAT, { json: chat({ tools_choice_future: { x: 1 }, best_of: 3, user: "u1" }) });
    assert.equal(response.status, 200);
    const body = (await response.json()) as { choices: unknown[] };
    assert.equal(body.choices.length, 1);
  });
});
