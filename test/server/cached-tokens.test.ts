import assert from "node:assert/strict";
import type OpenAI from "openai";
import { createOpenApiValidator } from "../helpers/openapi";
import { readSse, startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const openapi = createOpenApiValidator();
const PROMPT = "def fibonacci(n):\n    if n < 2:\n        return n\n    return fibonacci(n - 1) + fibonacci(n - 2)\n\n".repeat(8);

type Usage = OpenAI.CompletionUsage;

/** The usage chunk of a stream asked for it, and the header's count of cached prompt tokens. */
async function streamedUsage(response: Response): Promise<{ usage: Usage; header: number }> {
  assert.equal(response.status, 200);
  const events = await readSse(response);
  const last = events.at(-2) as { usage: Usage };
  return { usage: last.usage, header: Number(response.headers.get("x-wisp-prompt-tokens-cached")) };
}

describe("usage.prompt_tokens_details.cached_tokens: the prompt tokens the engine did not evaluate again", function () {
  this.timeout(120_000);
  let server: TestServer;
  // One sequence: every request meets the prefix the one before left.
  before(async () => {
    server = await startServer({ parallel: 1 });
  });
  after(() => server.close());

  it("is 0 for a first prompt, and counts the shared prefix of the next, on completions and chat, streamed or not", async () => {
    const first = await server.client.completions.create({ model: TEXT_MODEL, prompt: PROMPT, max_tokens: 2, temperature: 0 });
    openapi.assertValid("CreateCompletionResponse", first);
    assert.equal(first.usage!.prompt_tokens_details?.cached_tokens, 0, "nothing was evaluated before the first request");

    const extended = `${PROMPT}print(fibonacci(10))\n`;
    const { data: second, response } = await server.client.completions.create({ model: TEXT_MODEL, prompt: extended, max_tokens: 2, temperature: 0 }).withResponse();
    const cached = second.usage!.prompt_tokens_details!.cached_tokens!;
    assert.equal(cached, Number(response.headers.get("x-wisp-prompt-tokens-cached")));
    assert.ok(cached >= first.usage!.prompt_tokens - 1 && cached < second.usage!.prompt_tokens, `cached ${cached} of ${second.usage!.prompt_tokens} (first prompt ${first.usage!.prompt_tokens})`);

    const streamed = await streamedUsage(
      await server.fetch("/v1/completions", { json: { model: TEXT_MODEL, prompt: `${extended}# done\n`, max_tokens: 2, temperature: 0, stream: true, stream_options: { include_usage: true } } }),
    );
    assert.equal(streamed.usage.prompt_tokens_details?.cached_tokens, streamed.header);
    assert.ok(streamed.header >= second.usage!.prompt_tokens - 1, `streamed: cached ${streamed.header}`);

    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: PROMPT }];
    const chat = await server.client.chat.completions.create({ model: TEXT_MODEL, messages, max_tokens: 2, temperature: 0 });
    openapi.assertValid("CreateChatCompletionResponse", chat);
    // The chat template's first tokens differ from the code: little of it is shared.
    assert.ok(chat.usage!.prompt_tokens_details!.cached_tokens! < 5, `chat after code: cached ${chat.usage!.prompt_tokens_details!.cached_tokens}`);

    const followUp = [...messages, { role: "assistant" as const, content: chat.choices[0]!.message.content! }, { role: "user" as const, content: "And fibonacci(6)?" }];
    const chatStreamed = await streamedUsage(
      await server.fetch("/v1/chat/completions", { json: { model: TEXT_MODEL, messages: followUp, max_tokens: 2, temperature: 0, stream: true, stream_options: { include_usage: true } } }),
    );
    assert.equal(chatStreamed.usage.prompt_tokens_details?.cached_tokens, chatStreamed.header);
    assert.ok(chatStreamed.header >= chat.usage!.prompt_tokens - 1, `chat follow-up: cached ${chatStreamed.header} of ${chatStreamed.usage.prompt_tokens}`);
  });
});
