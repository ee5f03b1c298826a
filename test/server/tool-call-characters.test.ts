// A model with random weights writes any bytes it likes; under a tool-call (or JSON) grammar its
// strings must still be whole UTF-8 characters (never U+FFFD, bytes that are not UTF-8), streamed
// or not (see whole-characters.ts).
import assert from "node:assert/strict";
import path from "node:path";
import type OpenAI from "openai";
import { writeTinyLlamaGguf } from "../../src/server/models/write-tiny-llama";
import { readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const NOTE = { type: "object", properties: { title: { type: "string" }, tags: { type: "array", items: { type: "string" } } }, required: ["title", "tags"] } as const;
const SEARCH = { type: "object", properties: { query: { type: "string" } }, required: ["query"] } as const;
const TOOLS: OpenAI.ChatCompletionTool[] = [
  { type: "function", function: { name: "save_note", parameters: NOTE } },
  { type: "function", function: { name: "search", parameters: SEARCH } },
];
const MESSAGES: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "Note this: café, naïve, 日本語 ✓" }];
const CHOICES: OpenAI.ChatCompletionToolChoiceOption[] = ["required", { type: "function", function: { name: "save_note" } }];
const SEEDS = [1, 2, 3, 4, 5, 6];

/** Every string in `value` (keys too), recursively. */
function stringsOf(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => [k, ...stringsOf(v)]);
  return [];
}

/** The arguments parse as JSON, and none of their strings holds a cut character. */
function assertWholeCharacters(args: string, where: string): void {
  const strings = stringsOf(JSON.parse(args));
  for (const s of strings) assert.ok(!s.includes("\uFFFD"), `${where}: U+FFFD in ${JSON.stringify(s)} (arguments ${args})`);
  assert.ok(!args.includes("\uFFFD"), `${where}: U+FFFD in ${args}`);
}

describe("tool-call arguments are whole UTF-8 characters", function () {
  this.timeout(180_000);
  let server: TestServer;
  before(async () => {
    server = await startServer({ prepare: (dir) => writeTinyLlamaGguf(path.join(dir, `${TEXT_MODEL}.gguf`), "tiny") });
  });
  after(() => server.close());

  const body = (toolChoice: OpenAI.ChatCompletionToolChoiceOption, seed: number) => ({
    model: TEXT_MODEL,
    messages: MESSAGES,
    tools: TOOLS,
    tool_choice: toolChoice,
    max_tokens: 300,
    temperature: 1.5,
    seed,
  });

  for (const toolChoice of CHOICES) {
    const name = typeof toolChoice === "string" ? toolChoice : "a named function";
    it(`tool_choice ${name}, not streamed, n=2, seeds ${SEEDS.join(", ")}`, async () => {
      let whole = 0;
      for (const seed of SEEDS) {
        const response = await server.client.chat.completions.create({ ...body(toolChoice, seed), n: 2, stream: false });
        for (const choice of response.choices) {
          // A call cut at max_tokens is not JSON yet (and may end inside a character): only whole calls are read.
          if (choice.finish_reason !== "tool_calls") continue;
          const call = choice.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
          assertWholeCharacters(call.function.arguments, `seed ${seed} choice ${choice.index}`);
          whole++;
        }
      }
      assert.ok(whole >= SEEDS.length, `only ${whole} of ${2 * SEEDS.length} calls ended before max_tokens`);
    });

    it(`tool_choice ${name}, streamed, seeds ${SEEDS.join(", ")}`, async () => {
      let whole = 0;
      for (const seed of SEEDS) {
        const response = await server.fetch("/v1/chat/completions", { json: { ...body(toolChoice, seed), stream: true } });
        assert.equal(response.status, 200);
        const chunks = (await readSse(response)).slice(0, -1) as OpenAI.ChatCompletionChunk[];
        if (chunks.at(-1)!.choices[0]!.finish_reason !== "tool_calls") continue;
        const pieces = chunks.flatMap((c) => c.choices.flatMap((ch) => ch.delta.tool_calls ?? [])).map((d) => d.function?.arguments ?? "");
        for (const piece of pieces) assert.ok(!piece.includes("\uFFFD"), `seed ${seed}: U+FFFD in the streamed piece ${JSON.stringify(piece)}`);
        assertWholeCharacters(pieces.join(""), `seed ${seed} streamed`);
        whole++;
      }
      assert.ok(whole >= SEEDS.length / 2, `only ${whole} of ${SEEDS.length} calls ended before max_tokens`);
    });
  }

  it("response_format json_object and json_schema strings are whole characters too (same grammars)", async () => {
    let whole = 0;
    for (const format of [{ type: "json_object" }, { type: "json_schema", json_schema: { name: "note", schema: NOTE } }] as const) {
      for (const seed of SEEDS) {
        const response = await server.client.chat.completions.create({ model: TEXT_MODEL, messages: MESSAGES, response_format: format, max_tokens: 300, temperature: 1.5, seed });
        const choice = response.choices[0]!;
        if (choice.finish_reason !== "stop") continue;
        assertWholeCharacters(choice.message.content!, `${format.type} seed ${seed}`);
        whole++;
      }
    }
    assert.ok(whole >= SEEDS.length, `only ${whole} of ${2 * SEEDS.length} answers ended before max_tokens`);
  });
});
