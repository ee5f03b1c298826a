// Tool calling as agents written against other client libraries use it, unchanged, against the
// running server: each library sends its own request and parses the call itself.
import assert from "node:assert/strict";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { ChatOpenAI } from "@langchain/openai";
import { generateText, jsonSchema, tool } from "ai";
import { Ajv } from "ajv";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

const TIME = {
  type: "object",
  properties: { zone: { enum: ["UTC", "CET"] }, exact: { type: "boolean" } },
  required: ["zone", "exact"],
  additionalProperties: false,
} as const;
const validTime = new Ajv({ strict: false }).compile(TIME);

describe("tool calls through peer client libraries", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("the Vercel AI SDK's generateText with tools and toolChoice 'required' receives a parsed call", async () => {
    const provider = createOpenAICompatible({ name: "wisp", baseURL: server.baseURL, apiKey: server.key });
    const result = await generateText({
      model: provider(TEXT_MODEL),
      prompt: "What time is it in Berlin?",
      tools: { get_time: tool({ description: "The time in a zone", inputSchema: jsonSchema<{ zone: "UTC" | "CET"; exact: boolean }>(TIME) }) },
      toolChoice: "required",
      maxOutputTokens: 200,
      seed: 5,
    });
    assert.equal(result.finishReason, "tool-calls");
    assert.equal(result.toolCalls.length, 1);
    const call = result.toolCalls[0]!;
    assert.equal(call.toolName, "get_time");
    assert.ok(validTime(call.input), JSON.stringify(call.input));
  });

  it("LangChain's ChatOpenAI bindTools + invoke receives a parsed call", async () => {
    const chat = new ChatOpenAI({ model: TEXT_MODEL, apiKey: server.key, configuration: { baseURL: server.baseURL }, maxTokens: 200, modelKwargs: { seed: 6 } });
    const withTools = chat.bindTools([{ type: "function", function: { name: "get_time", description: "The time in a zone", parameters: TIME } }], { tool_choice: "required" });
    const message = await withTools.invoke("What time is it in Berlin?");
    assert.equal(message.tool_calls?.length, 1);
    const call = message.tool_calls![0]!;
    assert.equal(call.name, "get_time");
    assert.match(call.id ?? "", /^call_/);
    assert.ok(validTime(call.args), JSON.stringify(call.args));
  });
});
