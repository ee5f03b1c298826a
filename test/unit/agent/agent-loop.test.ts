import assert from "node:assert/strict";
import type { AgentChatRequest, AgentMessage, ToolCall } from "../../../src/core/api/chat";
import { runAgentLoop, type AgentLoopDeps, type AgentStreamDelta, type ValidCall } from "../../../src/core/agent/agent-loop";
import { agentTools } from "../../../src/core/agent/tool-schemas";
import { ToolArgValidator } from "../../../src/core/agent/tool-args";

/** One scripted answer: text and/or calls, streamed the way servers split them (arguments in pieces). */
interface Scripted {
  readonly text?: string;
  readonly calls?: readonly { id: string; name: string; args: string }[];
}

function streamOf(answers: Scripted[], requests: AgentChatRequest[]): AgentLoopDeps["stream"] {
  return async function* (body, signal) {
    requests.push(structuredClone(body));
    const answer = answers.shift() ?? { text: "done" };
    if (answer.text) for (const piece of answer.text.match(/.{1,3}/gs) ?? []) yield { content: piece };
    for (const [index, call] of (answer.calls ?? []).entries()) {
      yield { content: "", toolCalls: [{ index, id: call.id, function: { name: call.name, arguments: "" } }] };
      for (let at = 0; at < call.args.length; at += 4) {
        if (signal.aborted) throw new Error("aborted");
        yield { content: "", toolCalls: [{ index, function: { arguments: call.args.slice(at, at + 4) } }] } satisfies AgentStreamDelta;
      }
    }
    yield { content: "", finishReason: answer.calls?.length ? "tool_calls" : "stop" };
  };
}

function loop(answers: Scripted[], run: (call: ValidCall, signal: AbortSignal) => Promise<{ content: string; isError?: boolean }>, maxSteps = 25) {
  const requests: AgentChatRequest[] = [];
  const rejected: string[] = [];
  const texts: string[] = [];
  const validator = new ToolArgValidator(agentTools);
  const deps: AgentLoopDeps = {
    stream: streamOf(answers, requests),
    request: (messages) => ({ model: "m", messages: [...messages], tools: [...agentTools] }),
    validate: (call: ToolCall) => validator.validate(call.function.name, call.function.arguments),
    run,
    maxSteps,
    events: { text: () => undefined, answered: (text) => texts.push(text), rejected: (_call, error) => rejected.push(error) },
  };
  return { deps, requests, rejected, texts };
}

const task: AgentMessage[] = [{ role: "user", content: "make the test pass" }];
const toolResults = (messages: readonly AgentMessage[]) => messages.filter((m) => m.role === "tool");

describe("agent loop", () => {
  it("runs the reassembled calls, answers each with its tool_call_id, and ends on an answer without calls", async () => {
    const ran: ValidCall[] = [];
    const { deps, requests, texts } = loop(
      [
        { text: "Let me look.", calls: [{ id: "a1", name: "read_file", args: '{"path":"src/cart.js","start_line":2}' }, { id: "a2", name: "list_dir", args: '{"path":"."}' }] },
        { text: "Fixed it." },
      ],
      async (call) => {
        ran.push(call);
        return { content: `result of ${call.name}` };
      },
    );
    const result = await runAgentLoop(deps, task, new AbortController().signal);
    assert.equal(result.end, "done");
    assert.equal(result.steps, 1);
    assert.deepEqual(ran.map((c) => [c.id, c.name, c.args]), [["a1", "read_file", { path: "src/cart.js", start_line: 2 }], ["a2", "list_dir", { path: "." }]]);
    assert.equal(requests.length, 2);
    const second = requests[1]!.messages;
    assert.deepEqual(second.at(-3), { role: "assistant", content: "Let me look.", tool_calls: [{ id: "a1", type: "function", function: { name: "read_file", arguments: '{"path":"src/cart.js","start_line":2}' } }, { id: "a2", type: "function", function: { name: "list_dir", arguments: '{"path":"."}' } }] });
    assert.deepEqual(second.slice(-2), [{ role: "tool", tool_call_id: "a1", content: "result of read_file" }, { role: "tool", tool_call_id: "a2", content: "result of list_dir" }]);
    assert.deepEqual(result.messages.at(-1), { role: "assistant", content: "Fixed it." });
    assert.deepEqual(texts, ["Let me look.", "Fixed it."]);
  });

  it("answers an unknown tool and arguments that are not JSON or break the schema with an error, and goes on", async () => {
    const { deps, rejected } = loop(
      [
        { calls: [{ id: "b1", name: "delete_everything", args: "{}" }, { id: "b2", name: "read_file", args: '{"path": "a.js"' }, { id: "b3", name: "read_file", args: '{"path": 3}' }] },
        { text: "ok" },
      ],
      async () => assert.fail("no call is valid"),
    );
    const result = await runAgentLoop(deps, task, new AbortController().signal);
    assert.equal(result.end, "done");
    const [unknown, notJson, badType] = toolResults(result.messages).map((m) => m.content);
    assert.match(unknown!, /^Error: .*delete_everything.*read_file/s);
    assert.match(notJson!, /^Error: .*not (valid )?JSON/is);
    assert.match(badType!, /^Error: .*path/s);
    assert.equal(rejected.length, 3);
  });

  it("stops when the same call comes three times in a row, answering it without running it", async () => {
    const same = { id: "c", name: "read_file", args: '{"path":"a.js"}' };
    let runs = 0;
    const { deps, requests } = loop([{ calls: [same] }, { calls: [{ ...same, args: '{ "path" : "a.js" }' }] }, { calls: [same] }, { text: "never asked" }], async () => {
      runs++;
      return { content: "text" };
    });
    const result = await runAgentLoop(deps, task, new AbortController().signal);
    assert.equal(result.end, "repeated");
    assert.equal(runs, 2);
    assert.equal(requests.length, 3);
    assert.match(toolResults(result.messages).at(-1)!.content, /3 times in a row/);
  });

  it("stops after maxSteps tool rounds, and a second run from its messages goes on", async () => {
    const answers: Scripted[] = [1, 2, 3].map((n) => ({ calls: [{ id: `d${n}`, name: "list_dir", args: `{"path":"dir${n}"}` }] }));
    const { deps } = loop([...answers, { text: "all listed" }], async (call) => ({ content: String(call.args.path) }), 2);
    const first = await runAgentLoop(deps, task, new AbortController().signal);
    assert.deepEqual([first.end, first.steps], ["max-steps", 2]);
    const second = await runAgentLoop(deps, first.messages, new AbortController().signal);
    assert.equal(second.end, "done");
    assert.deepEqual(toolResults(second.messages).map((m) => m.content), ["dir1", "dir2", "dir3"]);
  });

  it("Stop during a tool ends the task and still answers every call of that answer", async () => {
    const stop = new AbortController();
    const { deps, requests } = loop([{ calls: [{ id: "e1", name: "run_in_terminal", args: '{"command":"sleep 100"}' }, { id: "e2", name: "list_dir", args: '{"path":"."}' }] }], async (_call, signal) => {
      stop.abort();
      assert.ok(signal.aborted, "the tool gets the task's signal");
      return { content: "stopped by the user", isError: true };
    });
    const result = await runAgentLoop(deps, task, stop.signal);
    assert.equal(result.end, "stopped");
    assert.equal(requests.length, 1);
    assert.deepEqual(toolResults(result.messages).map((m) => [m.tool_call_id, m.content]), [["e1", "Error: stopped by the user"], ["e2", "Not run: the user stopped the task."]]);
  });

  it("a failed request ends the task as an error, keeping the conversation so far", async () => {
    const deps: AgentLoopDeps = {
      ...loop([], async () => ({ content: "" })).deps,
      stream: async function* () {
        yield { content: "" };
        throw Object.assign(new Error("The server is down"), { kind: "unreachable" });
      },
    };
    const result = await runAgentLoop(deps, task, new AbortController().signal);
    assert.equal(result.end, "error");
    assert.equal((result.error as Error).message, "The server is down");
    assert.deepEqual(result.messages, task);
  });
});
