import assert from "node:assert/strict";
import { Ajv } from "ajv";
import type OpenAI from "openai";
import { createOpenApiValidator } from "../helpers/openapi";
import path from "node:path";
import { readGgufFileInfo } from "node-llama-cpp";
import { EngineBusyError } from "../../src/server/engine-input-error";
import type { GenerationRequest, GenerationResult } from "../../src/server/engines/text/types";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";
import { readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

/** A model whose template knows nothing of tools: plain ChatML. */
const PLAIN_MODEL = "wisp-tiny-plain";
const PLAIN_CHATML =
  "{% for message in messages %}{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}{% endfor %}" +
  "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}";

const openapi = createOpenApiValidator();
const ajv = new Ajv({ strict: false });

const WEATHER = {
  type: "object",
  properties: { city: { type: "string" }, unit: { enum: ["celsius", "fahrenheit"] }, days: { type: "integer" } },
  required: ["city", "unit"],
  additionalProperties: false,
} as const;
const TIME = { type: "object", properties: { zone: { enum: ["UTC", "CET"] }, exact: { type: "boolean" } }, required: ["zone"] } as const;
const TOOLS: OpenAI.ChatCompletionTool[] = [
  { type: "function", function: { name: "get_weather", description: "Weather in a city", parameters: WEATHER } },
  { type: "function", function: { name: "get_time", description: "The time in a zone", parameters: TIME } },
];
const SCHEMAS: Record<string, object> = { get_weather: WEATHER, get_time: TIME };
const MESSAGES: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "What is the weather in Paris?" }];

/** The call's arguments parse as JSON and satisfy its tool's schema. */
function assertValidCall(toolCall: OpenAI.ChatCompletionMessageToolCall, name?: string): unknown {
  const call = toolCall as OpenAI.ChatCompletionMessageFunctionToolCall;
  assert.equal(call.type, "function");
  assert.match(call.id, /^call_[a-f0-9]{24}$/);
  if (name) assert.equal(call.function.name, name);
  const args: unknown = JSON.parse(call.function.arguments);
  const schema = SCHEMAS[call.function.name];
  assert.ok(schema, `unknown tool ${call.function.name}`);
  assert.ok(ajv.validate(schema, args), `${call.function.arguments}: ${ajv.errorsText()}`);
  return args;
}

describe("tool calling on /v1/chat/completions", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({
      prepare: async (dir) => {
        await writeTinyLlamaGguf(path.join(dir, `${TEXT_MODEL}.gguf`), "tiny");
        await writeTinyLlamaGguf(path.join(dir, `${PLAIN_MODEL}.gguf`), "tiny", { extra: new Map([["tokenizer.chat_template", { type: "string", value: PLAIN_CHATML }]]) });
      },
    });
  });
  after(() => server.close());

  const chat = (body: Partial<OpenAI.ChatCompletionCreateParamsNonStreaming>) =>
    server.client.chat.completions.create({ model: TEXT_MODEL, messages: MESSAGES, tools: TOOLS, max_tokens: 200, temperature: 1, seed: 3, ...body, stream: false });

  it("a named function is always called, with arguments valid for its schema", async () => {
    for (const seed of [1, 2, 3]) {
      const { data: response, response: raw } = await chat({ seed, tool_choice: { type: "function", function: { name: "get_weather" } } }).withResponse();
      openapi.assertValid("CreateChatCompletionResponse", response);
      // The prompt headers a text answer has.
      const evaluated = raw.headers.get("x-wisp-prompt-tokens-evaluated");
      const cached = raw.headers.get("x-wisp-prompt-tokens-cached");
      assert.match(evaluated ?? "", /^\d+$/);
      assert.match(cached ?? "", /^\d+$/);
      assert.equal(Number(evaluated) + Number(cached), response.usage!.prompt_tokens);
      const choice = response.choices[0]!;
      assert.equal(choice.finish_reason, "tool_calls");
      assert.equal(choice.message.content, null);
      assert.equal(choice.message.tool_calls!.length, 1);
      assertValidCall(choice.message.tool_calls![0]!, "get_weather");
    }
  });

  it("arguments follow anyOf, allOf, enum, const and nested objects and arrays", async () => {
    const schema = {
      type: "object",
      properties: {
        value: { anyOf: [{ type: "integer" }, { enum: ["low", "high"] }] },
        tags: { type: "array", items: { type: "boolean" }, maxItems: 3 },
        where: { type: "object", properties: { lat: { type: "number" } }, required: ["lat"] },
        both: { allOf: [{ type: "object", properties: { x: { type: "boolean" } }, required: ["x"] }, { properties: { y: { const: 1 } }, required: ["y"] }] },
      },
      required: ["value", "tags", "where", "both"],
    };
    const validate = ajv.compile(schema);
    for (const seed of [1, 2, 3, 4]) {
      const response = await chat({ seed, tools: [{ type: "function", function: { name: "set", parameters: schema } }], tool_choice: "required" });
      const call = response.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      assert.ok(validate(JSON.parse(call.function.arguments)), `${call.function.arguments}: ${ajv.errorsText(validate.errors)}`);
    }
  });

  it("tool_choice required calls one of the tools, for every choice of n", async () => {
    // Room for the longest of three random-weight calls to end.
    const response = await chat({ tool_choice: "required", n: 3, max_tokens: 600 });
    openapi.assertValid("CreateChatCompletionResponse", response);
    assert.equal(response.choices.length, 3);
    for (const choice of response.choices) {
      assert.equal(choice.finish_reason, "tool_calls");
      assert.equal(choice.message.tool_calls!.length, 1);
      assertValidCall(choice.message.tool_calls![0]!);
    }
  });

  it("tool_choice allowed_tools holds calls to the tools it lists, all tools still in the prompt", async () => {
    const allowed = (mode: "auto" | "required", names: string[]) => ({ type: "allowed_tools", allowed_tools: { mode, tools: names.map((name) => ({ type: "function", function: { name } })) } }) as const;
    const all = await chat({ tool_choice: "required", n: 3, max_tokens: 600 });
    const response = await chat({ tool_choice: allowed("required", ["get_time"]), n: 3, max_tokens: 600 });
    openapi.assertValid("CreateChatCompletionResponse", response);
    // Both tools are rendered either way: the prompt is the same.
    assert.equal(response.usage!.prompt_tokens, all.usage!.prompt_tokens);
    for (const choice of response.choices) {
      assert.equal(choice.finish_reason, "tool_calls");
      assertValidCall(choice.message.tool_calls![0]!, "get_time");
    }
    const auto = await chat({ tool_choice: allowed("auto", ["get_weather"]), max_tokens: 6 });
    assert.equal(auto.choices.length, 1);
    const refused = await server.fetch("/v1/chat/completions", { json: { model: TEXT_MODEL, messages: MESSAGES, tools: TOOLS, tool_choice: allowed("required", ["get_date"]) } });
    const { error } = (await refused.json()) as { error: { param: string; message: string } };
    assert.equal(refused.status, 400);
    assert.equal(error.param, "tool_choice");
    assert.match(error.message, /names 'get_date', which is not among the tools/);
  });

  it("streams the call as OpenAI does and reassembles to the non-streamed call (same seed)", async () => {
    const body = { tool_choice: "required" as const, seed: 11 };
    const whole = (await chat(body)).choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    const response = await server.fetch("/v1/chat/completions", {
      json: { model: TEXT_MODEL, messages: MESSAGES, tools: TOOLS, max_tokens: 200, temperature: 1, ...body, stream: true, stream_options: { include_usage: true } },
    });
    const events = await readSse(response);
    assert.equal(events.at(-1), "[DONE]");
    type Chunk = OpenAI.ChatCompletionChunk;
    const chunks = events.slice(0, -1) as Chunk[];
    chunks.forEach((c) => openapi.assertValid("CreateChatCompletionStreamResponse", c));
    const deltas = chunks.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? []));
    assert.ok(deltas.length >= 2, "arguments come in pieces");
    const [first, ...rest] = deltas;
    assert.equal(first!.index, 0);
    assert.match(first!.id!, /^call_/);
    assert.equal(first!.type, "function");
    assert.equal(first!.function!.name, whole.function.name);
    for (const d of rest) {
      assert.equal(d.index, 0);
      assert.equal(d.id, undefined);
      assert.equal(d.function!.name, undefined);
    }
    assert.equal(deltas.map((d) => d.function!.arguments).join(""), whole.function.arguments);
    assert.equal(chunks.at(-2)!.choices[0]!.finish_reason, "tool_calls");
    const usage = chunks.at(-1)!.usage!;
    assert.ok(chunks.slice(0, -1).every((c) => c.usage === null), "every chunk but the last says usage: null, as the spec has it");
    assert.ok(usage.completion_tokens > 0);
    assert.equal(usage.total_tokens, usage.prompt_tokens + usage.completion_tokens);
  });

  it("the openai SDK's stream helper assembles the streamed call", async () => {
    const stream = server.client.chat.completions.stream({ model: TEXT_MODEL, messages: MESSAGES, tools: TOOLS, tool_choice: { type: "function", function: { name: "get_time" } }, max_tokens: 200, seed: 4 });
    const final = await stream.finalChatCompletion();
    const call = final.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    assertValidCall(call, "get_time");
    assert.equal(final.choices[0]!.finish_reason, "tool_calls");
  });

  it("a full loop: the call, the tool's result, then an answer rendered with both in the template's layout", async () => {
    const call = (await chat({ tool_choice: { type: "function", function: { name: "get_weather" } } })).choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    const args = assertValidCall(call, "get_weather");
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      ...MESSAGES,
      { role: "assistant", content: null, tool_calls: [call] },
      { role: "tool", tool_call_id: call.id, content: '{"temperature": 21}' },
    ];
    const answer = await chat({ messages, tool_choice: "none", max_tokens: 8, temperature: 0 });
    openapi.assertValid("CreateChatCompletionResponse", answer);
    assert.equal(typeof answer.choices[0]!.message.content, "string");
    assert.equal("tool_calls" in answer.choices[0]!.message, false);
    assert.equal(answer.choices[0]!.finish_reason, "length");
    // The tool's call and result in the tiny model's layout (ChatML with <tool_call>/<tool_response>).
    const json = (value: unknown) => JSON.stringify(value, null, 1).split("\n").map((l) => (l.trim().endsWith(",") ? `${l.trim()} ` : l.trim())).join("");
    const rendered =
      "<|im_start|>user\nWhat is the weather in Paris?<|im_end|>\n" +
      `<|im_start|>assistant\n<tool_call>\n{"name": "get_weather", "arguments": ${json(args)}}\n</tool_call><|im_end|>\n` +
      '<|im_start|>user\n<tool_response>\n{"temperature": 21}\n</tool_response><|im_end|>\n<|im_start|>assistant\n';
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    const prompt = server.deps.textEngine.toolChatPrompt(model, [
      { role: "user", content: "What is the weather in Paris?" },
      { role: "assistant", content: "", toolCalls: [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] },
      { role: "tool", toolCallId: call.id, content: '{"temperature": 21}' },
    ], []).tokens;
    assert.equal(model.detokenize(prompt, true), rendered);
    assert.equal(answer.usage!.prompt_tokens, prompt.length);
  });

  it("tool_choice auto lets the model answer in text when it does not call", async () => {
    const response = await chat({ tool_choice: "auto", max_tokens: 6 });
    openapi.assertValid("CreateChatCompletionResponse", response);
    assert.equal(typeof response.choices[0]!.message.content, "string");
    assert.equal("tool_calls" in response.choices[0]!.message, false);
    assert.equal(response.choices[0]!.finish_reason, "length");
  });

  it("tool_choice auto: text before the call marker stays as content, the call follows under the grammar (streamed too)", async () => {
    // The seam: the free-running part is scripted to write text and then the marker (a model with
    // random weights never does); the call itself is generated by the real engine.
    const engine = server.deps.textEngine;
    const real = engine.generate.bind(engine);
    const free: GenerationRequest[] = [];
    engine.generate = async (id: string, file: string, request: GenerationRequest): Promise<GenerationResult> => {
      if (!request.stop.includes("<tool_call>")) return real(id, file, request);
      free.push(request);
      request.onPromptReady?.({ evaluated: request.prompt.length, cached: 0 });
      request.onText?.(0, "Let me look. ", []);
      return { choices: [{ text: "Let me look. ", tokens: 4, finishReason: "stop", stopString: "<tool_call>" }], promptTokens: request.prompt.length, completionTokens: 4, prompt: { evaluated: request.prompt.length, cached: 0 }, tokensAfterAbort: 0 };
    };
    try {
      const response = await chat({ tool_choice: "auto", seed: 8, max_tokens: 600 });
      openapi.assertValid("CreateChatCompletionResponse", response);
      const choice = response.choices[0]!;
      assert.equal(choice.message.content, "Let me look. ");
      assert.equal(choice.finish_reason, "tool_calls");
      const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
      assertValidCall(call);
      assert.ok(response.usage!.completion_tokens > 4);

      const stream = await server.client.chat.completions.create({ model: TEXT_MODEL, messages: MESSAGES, tools: TOOLS, tool_choice: "auto", max_tokens: 600, temperature: 1, seed: 8, stream: true });
      let content = "";
      let args = "";
      let finish: string | null = null;
      for await (const chunk of stream) {
        const c = chunk.choices[0];
        content += c?.delta.content ?? "";
        args += c?.delta.tool_calls?.map((t) => t.function?.arguments ?? "").join("") ?? "";
        finish = c?.finish_reason ?? finish;
      }
      assert.equal(content, "Let me look. ");
      assert.equal(args, call.function.arguments);
      assert.equal(finish, "tool_calls");
      assert.equal(free.length, 2);
    } finally {
      engine.generate = real;
    }
  });

  it("tool_choice auto with a response_format: the format holds a text answer, and the model may still call a tool", async () => {
    // "<" favoured: the marker's first character, which no JSON answer starts with.
    const model = await server.deps.textEngine.model(TEXT_MODEL, server.deps.registry.get(TEXT_MODEL)!.path);
    const [open] = model.tokenize("<", false);
    const logit_bias = { [String(open)]: 100 };
    const formats = [{ type: "json_object" }, { type: "json_schema", json_schema: { name: "answer", schema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] } } }] as const;
    for (const response_format of formats) {
      const called = await chat({ tool_choice: "auto", tools: [TOOLS[0]!], response_format, logit_bias, max_tokens: 120 });
      const call = called.choices[0]!.message.tool_calls?.[0] as OpenAI.ChatCompletionMessageFunctionToolCall | undefined;
      assert.equal(call?.function.name, "get_weather", JSON.stringify(called.choices[0]));
      assert.equal(called.choices[0]!.message.content, null);
      // Without the push towards a call, the answer is JSON in the format.
      const answered = await chat({ tool_choice: "auto", tools: [TOOLS[0]!], response_format, max_tokens: 400, temperature: 0 });
      assert.equal("tool_calls" in answered.choices[0]!.message, false);
      assert.match(answered.choices[0]!.message.content ?? "", /^\s*\{/);
    }
  });

  it("tool_choice auto: free text that leaves no room for the call ends with length, and a failed call still counts the free tokens", async () => {
    const engine = server.deps.textEngine;
    const real = engine.generate.bind(engine);
    let text = "";
    let failCall = false;
    // Scripted as above: the free part writes `text`, then the marker.
    engine.generate = async (id: string, file: string, request: GenerationRequest): Promise<GenerationResult> => {
      if (!request.stop.includes("<tool_call>")) return failCall ? Promise.reject(new EngineBusyError("queue full")) : real(id, file, request);
      request.onPromptReady?.({ evaluated: request.prompt.length, cached: 0 });
      return { choices: [{ text, tokens: 4, finishReason: "stop", stopString: "<tool_call>" }], promptTokens: request.prompt.length, completionTokens: 4, prompt: { evaluated: request.prompt.length, cached: 0 }, tokensAfterAbort: 0 };
    };
    const usage = server.deps.usage;
    const served: { promptTokens?: number; completionTokens?: number }[] = [];
    const record = usage.served.bind(usage);
    usage.served = (request, used, status) => (served.push(used), record(request, used, status));
    try {
      text = "Let me look. ".repeat(1000);
      const full = await chat({ tool_choice: "auto", max_tokens: 600 });
      assert.equal(full.choices[0]!.finish_reason, "length");
      assert.equal(full.choices[0]!.message.content, text);
      assert.equal("tool_calls" in full.choices[0]!.message, false);
      text = "Let me look. ";
      failCall = true;
      const busy = await server.fetch("/v1/chat/completions", { json: { model: TEXT_MODEL, messages: MESSAGES, tools: TOOLS, tool_choice: "auto", max_tokens: 600 } });
      assert.equal(busy.status, 429);
      assert.deepEqual(served.at(-1), { model: TEXT_MODEL, promptTokens: full.usage!.prompt_tokens, completionTokens: 4 });
    } finally {
      engine.generate = real;
      Reflect.deleteProperty(usage, "served");
    }
  });

  it("a model whose template has no tool layout gets the tools described in a generic layout, and calls in it", async () => {
    const model = await server.deps.textEngine.model(PLAIN_MODEL, server.deps.registry.get(PLAIN_MODEL)!.path);
    const rendered = server.deps.textEngine.toolChatPrompt(model, [{ role: "user", content: "Weather?" }], [{ name: "get_weather", description: "Weather in a city", parameters: WEATHER }]);
    assert.equal(rendered.templateTools, false);
    const text = model.detokenize(rendered.tokens, true);
    assert.match(text, /^<\|im_start\|>system\n.*get_weather/s);
    assert.match(text, /Weather in a city/);
    assert.ok(text.includes(rendered.layout.prefix), text);
    const response = await chat({ model: PLAIN_MODEL, tool_choice: "required" });
    openapi.assertValid("CreateChatCompletionResponse", response);
    assert.equal(response.choices[0]!.finish_reason, "tool_calls");
    assertValidCall(response.choices[0]!.message.tool_calls![0]!);
  });

  it("the legacy functions and function_call answer with message.function_call", async () => {
    const response = await server.client.chat.completions.create({
      model: TEXT_MODEL,
      messages: MESSAGES,
      functions: TOOLS.map((t) => (t as OpenAI.ChatCompletionFunctionTool).function),
      function_call: { name: "get_time" },
      max_tokens: 200,
      seed: 2,
    });
    openapi.assertValid("CreateChatCompletionResponse", response);
    const choice = response.choices[0]!;
    assert.equal(choice.finish_reason, "function_call");
    assert.equal(choice.message.function_call!.name, "get_time");
    assert.equal("tool_calls" in choice.message, false);
    assert.ok(ajv.validate(TIME, JSON.parse(choice.message.function_call!.arguments)));

    const response2 = await server.fetch("/v1/chat/completions", {
      json: { model: TEXT_MODEL, messages: MESSAGES, functions: TOOLS.map((t) => (t as OpenAI.ChatCompletionFunctionTool).function), function_call: { name: "get_time" }, max_tokens: 200, seed: 2, stream: true, parallel_tool_calls: false },
    });
    const chunks = (await readSse(response2)).slice(0, -1) as OpenAI.ChatCompletionChunk[];
    chunks.forEach((c) => openapi.assertValid("CreateChatCompletionStreamResponse", c));
    const deltas = chunks.map((c) => c.choices[0]?.delta.function_call).filter((d) => d !== undefined);
    assert.equal(deltas[0]!.name, "get_time");
    assert.equal(deltas.map((d) => d.arguments).join(""), choice.message.function_call!.arguments);
    assert.equal(chunks.at(-1)!.choices[0]!.finish_reason, "function_call");
  });

  it("integer fields are plain safe integers and numbers finite, even with 'e'/'E' favoured (tool arguments and json_schema)", async () => {
    const measures = {
      type: "object",
      properties: { count: { type: "integer" }, offset: { type: "integer" }, ratio: { type: "number" } },
      required: ["count", "offset", "ratio"],
      additionalProperties: false,
    };
    const info = await readGgufFileInfo(path.join(server.deps.config.modelsDir, `${TEXT_MODEL}.gguf`), { readTensorInfo: false, logWarnings: false });
    const vocabulary = info.metadata.tokenizer.ggml.tokens;
    const exponentTokens = vocabulary.flatMap((text, id) => (/^[eE][-+]?[0-9]*$/.test(text) ? [id] : []));
    assert.ok(exponentTokens.length > 0);
    const logit_bias = Object.fromEntries(exponentTokens.map((id) => [String(id), 10]));
    const texts: string[] = [];
    for (const seed of [1, 2, 3, 4]) {
      const call = await chat({ seed, logit_bias, max_tokens: 300, tools: [{ type: "function", function: { name: "measure", parameters: measures } }], tool_choice: "required" });
      texts.push((call.choices[0]!.message.tool_calls![0] as OpenAI.ChatCompletionMessageFunctionToolCall).function.arguments);
      const format = { type: "json_schema" as const, json_schema: { name: "measures", schema: measures } };
      const answer = await chat({ seed, logit_bias, max_tokens: 300, tools: undefined, response_format: format });
      texts.push(answer.choices[0]!.message.content!);
    }
    for (const text of texts) {
      const value = JSON.parse(text) as { count: number; offset: number; ratio: number };
      assert.ok(Number.isSafeInteger(value.count) && Number.isSafeInteger(value.offset), text);
      assert.ok(Number.isFinite(value.ratio), text);
      // "7E0" parses as a safe integer too, and still fails pydantic's and zod's integer checks.
      for (const [, written] of text.matchAll(/"(?:count|offset)"\s*:\s*([^,}\s]+)/g)) assert.match(written!, /^-?\d+$/, text);
    }
  });

  const badCases: [name: string, body: Record<string, unknown>, param: string, message: RegExp][] = [
    ["tool_choice names an unknown tool", { tool_choice: { type: "function", function: { name: "nope" } } }, "tool_choice", /nope/],
    ["a malformed parameters schema", { tools: [{ type: "function", function: { name: "f", parameters: { type: "objekt" } } }] }, "tools", /tools\[0\]\.function\.parameters is not a valid JSON schema/],
    ["parameters that are not an object schema", { tools: [{ type: "function", function: { name: "f", parameters: { type: "string" } } }] }, "tools", /type "object"/],
    ["tool_choice without tools", { tools: undefined, tool_choice: "required" }, "tool_choice", /only allowed when tools/],
    ["a tool message without a matching call", { messages: [...MESSAGES, { role: "tool", tool_call_id: "call_x", content: "1" }] }, "messages", /messages\[1\] answers tool call 'call_x'/],
    [
      "a call the messages do not answer",
      { messages: [...MESSAGES, { role: "assistant", content: null, tool_calls: [{ id: "call_a", type: "function", function: { name: "get_time", arguments: "{}" } }] }, { role: "user", content: "hm" }] },
      "messages",
      /messages\[1\] calls tools that the messages after it do not answer/,
    ],
    ["an invalid function name", { tools: [{ type: "function", function: { name: "has space" } }] }, "tools", /pattern/],
  ];
  for (const [name, body, param, message] of badCases) {
    it(`400 naming ${param}: ${name}`, async () => {
      const response = await server.fetch("/v1/chat/completions", { json: { model: TEXT_MODEL, messages: MESSAGES, tools: TOOLS, max_tokens: 4, ...body } });
      assert.equal(response.status, 400);
      const error = (await response.json()) as { error: { param: string; message: string; type: string } };
      assert.equal(error.error.param, param);
      assert.equal(error.error.type, "invalid_request_error");
      assert.match(error.error.message, message);
    });
  }
});
