import assert from "node:assert/strict";
import { applyStreamEvent, answerFromResponse, emptyAnswer } from "../../../../src/core/playground/chat-answer";
import { buildChatRequest, emptyChatParameters, type ChatSetup, type ChatTurn } from "../../../../src/core/playground/chat-request";
import { addToolCallDeltas, describeCall, emptyTool, toolFields, unansweredCall, type ToolFields } from "../../../../src/core/playground/chat-tools";
import type { FieldError } from "../../../../src/core/playground/form-values";

const schema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };
const tool = (over: Partial<ToolFields> = {}): ToolFields => ({ ...emptyTool(), name: "get_weather", parameters: JSON.stringify(schema), ...over });
const setup = (over: Partial<ChatSetup> = {}): ChatSetup => ({ model: "wisp-tiny", system: "", params: emptyChatParameters(), responseMode: "text", jsonSchema: "", stream: false, ...over });
const fields = (t: ToolFields) => {
  const errors: FieldError[] = [];
  return { body: toolFields(t, errors), errors };
};

describe("playground tool", () => {
  it("no tool name, no tools in the request", () => {
    assert.deepEqual(fields(emptyTool()), { body: {}, errors: [] });
  });

  it("a named tool becomes tools[0], with tool_choice as chosen (auto is the default and left out)", () => {
    const fn = { name: "get_weather", description: "Weather", parameters: schema };
    assert.deepEqual(fields(tool({ description: " Weather " })).body, { tools: [{ type: "function", function: fn }] });
    assert.deepEqual(fields(tool({ choice: "required" })).body.tool_choice, "required");
    assert.deepEqual(fields(tool({ choice: "none" })).body.tool_choice, "none");
    assert.deepEqual(fields(tool({ choice: "named" })).body.tool_choice, { type: "function", function: { name: "get_weather" } });
  });

  it("names what is wrong with the tool at its field", () => {
    assert.deepEqual(fields(tool({ name: "get weather" })).errors.map((e) => e.field), ["tool_name"]);
    assert.match(fields(tool({ parameters: "{nope" })).errors[0]!.message, /JSON schema of the tool's arguments is not valid JSON/);
    assert.match(fields(tool({ parameters: "[1]" })).errors[0]!.message, /must be a JSON object/);
    assert.equal(buildChatRequest(setup({ tool: tool({ parameters: "" }) }), [{ role: "user", content: "hi" }]).ok, false);
  });

  it("sends calls and their results back as tool_calls and tool messages", () => {
    const call = { id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' };
    const turns: ChatTurn[] = [
      { role: "user", content: "Weather?" },
      { role: "assistant", content: "", toolCalls: [call] },
      { role: "tool", content: "sunny", toolCallId: "call_1" },
    ];
    const built = buildChatRequest(setup({ tool: tool() }), turns);
    assert.ok(built.ok);
    assert.deepEqual(built.body.messages, [
      { role: "user", content: "Weather?" },
      { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } }] },
      { role: "tool", tool_call_id: "call_1", content: "sunny" },
    ]);
    assert.equal(unansweredCall(turns), undefined);
    assert.deepEqual(unansweredCall(turns.slice(0, 2)), call);
    assert.equal(describeCall(call), 'get_weather({"city":"Paris"})');
  });

  it("assembles streamed call deltas: id and name first, arguments in pieces", () => {
    const chunk = (delta: object, finish: string | null = null) => JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] });
    const answer = [
      chunk({ role: "assistant", content: null }),
      chunk({ tool_calls: [{ index: 0, id: "call_9", type: "function", function: { name: "get_weather", arguments: "" } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"ci' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: 'ty":"Rome"}' } }] }),
      chunk({}, "tool_calls"),
      "[DONE]",
    ].reduce(applyStreamEvent, emptyAnswer);
    assert.deepEqual(answer, { content: "", toolCalls: [{ id: "call_9", name: "get_weather", arguments: '{"city":"Rome"}' }], finishReason: "tool_calls", done: true });
    assert.deepEqual(addToolCallDeltas([], "nope"), []);
  });

  it("reads the calls of a whole answer", () => {
    const body = { choices: [{ message: { role: "assistant", content: null, tool_calls: [{ id: "call_2", type: "function", function: { name: "get_weather", arguments: "{}" } }] }, finish_reason: "tool_calls" }] };
    assert.deepEqual(answerFromResponse(body), { content: "", toolCalls: [{ id: "call_2", name: "get_weather", arguments: "{}" }], finishReason: "tool_calls", usage: undefined, done: true });
  });
});
