import assert from "node:assert/strict";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

/**
 * The JSON answers of the text routes are serialized by their response schemas: every field the
 * route writes goes out as JSON.stringify would write it, and a field the schema does not name
 * does not go out at all.
 */
describe("response schemas of /v1/completions and /v1/chat/completions", function () {
  this.timeout(60_000);
  let server: TestServer;
  /** What each text route handed to serialization, as JSON.stringify writes it. */
  const written: unknown[] = [];

  before(async () => {
    server = await startServer({
      beforeListen: (app) =>
        app.addHook("preSerialization", async (request, _reply, payload) => {
          if (!request.url.startsWith("/v1/") || request.url === "/v1/models") return payload;
          written.push(JSON.parse(JSON.stringify(payload)));
          return { ...(payload as object), undeclared: "must not be sent" };
        }),
    });
  });
  after(() => server?.close());

  const messages = [{ role: "user", content: "What does fibonacci(5) return?" }];
  const schema = { type: "object", properties: { n: { type: "integer" }, ok: { type: "boolean" } } };
  const cases: [name: string, path: string, body: object][] = [
    ["a completion", "/v1/completions", { prompt: "def fib(n):", max_tokens: 5, temperature: 0 }],
    ["completions of two prompts, two choices each, with logprobs", "/v1/completions", { prompt: ["def a(", "x = "], n: 2, max_tokens: 4, logprobs: 3 }],
    ["an echoed completion", "/v1/completions", { prompt: "x = ", echo: true, max_tokens: 3 }],
    ["a chat answer", "/v1/chat/completions", { messages, max_tokens: 5 }],
    ["two chat answers with logprobs", "/v1/chat/completions", { messages, max_tokens: 4, n: 2, logprobs: true, top_logprobs: 2 }],
    ["a tool call", "/v1/chat/completions", { messages, max_tokens: 200, seed: 1, tools: [{ type: "function", function: { name: "f", parameters: schema } }], tool_choice: "required" }],
    ["a legacy function call", "/v1/chat/completions", { messages, max_tokens: 200, seed: 1, functions: [{ name: "f", parameters: schema }], function_call: { name: "f" } }],
  ];
  for (const [name, path, body] of cases) {
    it(`${name}: every field written, nothing undeclared`, async () => {
      written.length = 0;
      const response = await server.fetch(path, { json: { model: TEXT_MODEL, ...body } });
      assert.equal(response.status, 200);
      const text = await response.text();
      assert.equal(written.length, 1);
      assert.deepEqual(JSON.parse(text), written[0]);
      assert.doesNotMatch(text, /undeclared/);
    });
  }
});
