import assert from "node:assert/strict";
import type { AgentChatRequest, AgentMessage, ToolCall } from "../../src/core/api/chat";
import { runAgentLoop, type ValidCall } from "../../src/core/agent/agent-loop";
import { ToolArgValidator } from "../../src/core/agent/tool-args";
import { agentTools } from "../../src/core/agent/tool-schemas";
import { WispClient } from "../../src/client/wisp-client";
import { startServer, TEXT_MODEL, type TestServer } from "./server-fixture";

/**
 * Agent mode's loop, with the extension's own client, against the real server on the generated
 * model: a forced first call (tool_choice "required") and `auto` after it. The tiny model's words
 * mean nothing; what is checked is the protocol: streamed calls reassembled into valid arguments,
 * results sent back by id, and an end the loop understands.
 */
describe("the agent loop through the real server", function () {
  this.timeout(120_000);
  let server: TestServer;
  before(async () => {
    server = await startServer();
  });
  after(() => server.close());

  it("runs a forced call, sends its result, and goes on with auto until the model answers or the step limit", async () => {
    const client = new WispClient({ baseUrl: server.baseURL, apiKey: server.key });
    // Two of the tools: all eight take about 3,500 tokens, more than the tiny model's 2,048-token window.
    const tools = agentTools.filter((t) => t.function.name === "list_dir" || t.function.name === "read_file");
    const validator = new ToolArgValidator(tools);
    const requests: AgentChatRequest[] = [];
    const ran: ValidCall[] = [];
    const answers: ToolCall[][] = [];
    const result = await runAgentLoop(
      {
        stream: (body, signal) => client.streamChat(body, signal),
        request: (messages) => {
          const body: AgentChatRequest = { model: TEXT_MODEL, messages: [...messages], tools: [...tools], tool_choice: requests.length === 0 ? "required" : "auto", max_tokens: 200, temperature: 0.8, seed: 11 };
          requests.push(body);
          return body;
        },
        validate: (call) => validator.validate(call.function.name, call.function.arguments),
        run: async (call) => {
          ran.push(call);
          return { content: `(${call.name} ran)` };
        },
        maxSteps: 3,
        events: {
          text: () => undefined,
          answered: (_text, calls) => answers.push([...calls]),
          rejected: () => undefined,
        },
      },
      [{ role: "user", content: "List the files of the workspace." }],
      new AbortController().signal,
    );
    assert.ok(result.end === "done" || result.end === "max-steps", `ended ${result.end}: ${String(result.error)}`);
    // The forced answer is grammar-constrained: calls of known tools with JSON arguments (the
    // grammar does not bound numbers, so the loop may still refuse, e.g., a start_line of 0).
    const forced = answers[0]!;
    assert.ok(forced.length >= 1, "the forced request called a tool");
    for (const call of forced) {
      assert.ok(tools.some((t) => t.function.name === call.function.name), call.function.name);
      assert.equal(typeof JSON.parse(call.function.arguments), "object", call.function.arguments);
    }
    // The second request carries the first call and its result, linked by id.
    const second = requests[1]!.messages;
    const asked = second.find((m): m is Extract<AgentMessage, { tool_calls: unknown }> => m.role === "assistant" && "tool_calls" in m)!;
    const answered = second.filter((m): m is Extract<AgentMessage, { role: "tool" }> => m.role === "tool");
    assert.deepEqual(answered.map((m) => m.tool_call_id), asked.tool_calls.map((c) => c.id));
    assert.equal(requests[1]!.tool_choice, "auto");
  });
});
