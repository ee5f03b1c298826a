import assert from "node:assert/strict";
import { buildChatRequest, emptyChatParameters, type ChatSetup } from "../../../../src/core/playground/chat-request";
import { readLines, readNumber, unescapeField } from "../../../../src/core/playground/form-values";

const setup = (over: Partial<ChatSetup> = {}): ChatSetup => ({
  model: "wisp-tiny",
  system: "Be brief.",
  params: emptyChatParameters(),
  responseMode: "text",
  jsonSchema: "",
  stream: false,
  ...over,
});
const hello = [{ role: "user" as const, content: "Hello" }];

describe("playground chat request", () => {
  it("sends only what is set, system prompt first, in a fixed order", () => {
    const result = buildChatRequest(setup(), hello);
    assert.deepEqual(result, {
      ok: true,
      body: { model: "wisp-tiny", messages: [{ role: "system", content: "Be brief." }, { role: "user", content: "Hello" }] },
    });
    assert.deepEqual(buildChatRequest(setup({ system: "  " }), hello), { ok: true, body: { model: "wisp-tiny", messages: hello } });
  });

  it("turns every parameter into its API field, with numbers as numbers and stops as a list", () => {
    const params = { temperature: "0.7", top_p: "0.9", top_k: "40", max_tokens: "32", stop: "END\n\\n\n", presence_penalty: "-0.5", frequency_penalty: "1", seed: "7" };
    const result = buildChatRequest(setup({ params, stream: true, responseMode: "json_object" }), hello);
    assert.ok(result.ok);
    assert.deepEqual(result.body, {
      model: "wisp-tiny",
      messages: [{ role: "system", content: "Be brief." }, ...hello],
      temperature: 0.7,
      top_p: 0.9,
      top_k: 40,
      max_tokens: 32,
      presence_penalty: -0.5,
      frequency_penalty: 1,
      seed: 7,
      stop: ["END", "\n"],
      response_format: { type: "json_object" },
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it("sends a JSON schema as response_format json_schema", () => {
    const schema = { type: "object", properties: { a: { type: "number" } } };
    const result = buildChatRequest(setup({ responseMode: "json_schema", jsonSchema: JSON.stringify(schema) }), hello);
    assert.ok(result.ok);
    assert.deepEqual(result.body.response_format, { type: "json_schema", json_schema: { name: "response", schema } });
  });

  it("names every field that is wrong, with the server's limits", () => {
    const params = { ...emptyChatParameters(), temperature: "3", top_k: "1.5", max_tokens: "0", seed: "x", stop: Array.from({ length: 17 }, (_, i) => `s${i}`).join("\n") };
    const result = buildChatRequest(setup({ model: "", params, responseMode: "json_schema", jsonSchema: "[1]" }), []);
    assert.ok(!result.ok);
    assert.deepEqual(
      result.errors.map((e) => e.message),
      [
        "choose a model",
        "write a message",
        "temperature must be a number from 0 to 2",
        "top_k must be a whole number of at least -1",
        "max_tokens must be a whole number of at least 1",
        "seed must be a whole number",
        "stop takes at most 16 sequences",
        "the JSON schema must be a JSON object",
      ],
    );
    const broken = buildChatRequest(setup({ responseMode: "json_schema", jsonSchema: "{oops" }), hello);
    assert.ok(!broken.ok && /not valid JSON/.test(broken.errors[0]!.message));
  });

  it("reads form values: empty is unset, escapes in one-line fields", () => {
    const errors: { field: string; message: string }[] = [];
    assert.equal(readNumber("x", "  ", {}, errors), undefined);
    assert.equal(readNumber("x", " 2.5 ", { min: 0 }, errors), 2.5);
    assert.equal(readNumber("x", "Infinity", {}, errors), undefined);
    assert.deepEqual(errors, [{ field: "x", message: "x must be a number" }]);
    assert.equal(unescapeField("a\\nb\\tc\\\\n"), "a\nb\tc\\n");
    assert.deepEqual(readLines("a\r\n\r\nb\\n"), ["a", "b\n"]);
  });
});
