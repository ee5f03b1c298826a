/**
 * The agent's loop: ask the model with the conversation and the tools; run the tools it calls and
 * send their results back; stop when an answer calls no tool. Everything outside the loop (the
 * network, the tools, approvals, the transcript) is a seam, so the loop is tested without them.
 */
import type { AgentChatRequest, AgentMessage, ToolCall, ToolCallDelta } from "../api/chat";
import type { Usage } from "../api/usage";
import { RepeatDetector } from "./repeat-detector";
import { ToolCallAssembler } from "./tool-call-assembler";
import type { TaskEnd } from "./agent-task";

export interface AgentStreamDelta {
  readonly content: string;
  readonly toolCalls?: readonly ToolCallDelta[];
  readonly finishReason?: string;
  readonly usage?: Usage;
}

/** The network seam: the streamed answer to a request; must stop when `signal` aborts. */
export type AgentStream = (body: AgentChatRequest, signal: AbortSignal) => AsyncIterable<AgentStreamDelta>;

export interface ToolOutcome {
  /** What the model reads as the tool's result. */
  readonly content: string;
  readonly isError?: boolean;
}

/** A validated call, ready to run. */
export interface ValidCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

export interface AgentLoopDeps {
  readonly stream: AgentStream;
  /** The request for the conversation so far (model, tools as they are now, limits; the context fitted). */
  readonly request: (messages: readonly AgentMessage[]) => AgentChatRequest | Promise<AgentChatRequest>;
  /** Checks a call's name and arguments: the arguments, or an error the model reads. */
  readonly validate: (call: ToolCall) => { readonly ok: true; readonly args: Record<string, unknown> } | { readonly ok: false; readonly error: string };
  /** Runs a valid call (asking the user where the settings say so). */
  readonly run: (call: ValidCall, signal: AbortSignal) => Promise<ToolOutcome>;
  readonly events: AgentLoopEvents;
  readonly maxSteps: number;
  /** The same call this many times in a row stops the task. */
  readonly repeatLimit?: number;
}

export interface AgentLoopEvents {
  /** More text of the model's current answer. */
  text(delta: string): void;
  /** The current answer ended; its text (possibly empty) and whether it called tools. */
  answered(text: string, calls: readonly ToolCall[]): void;
  /** A call that could not run (unknown tool, bad arguments): the model is told why. */
  rejected(call: ToolCall, error: string): void;
}

export interface AgentLoopResult {
  readonly end: TaskEnd;
  readonly messages: AgentMessage[];
  readonly error?: unknown;
  /** Tool rounds this run made. */
  readonly steps: number;
  readonly usage?: Usage;
  /** How the server ended the last answer (`length`: cut at max_tokens), when the task is done. */
  readonly finishReason?: string;
}

const stoppedResult = "Not run: the user stopped the task.";
const repeatedResult = (limit: number) => `Not run: the same call with the same arguments was made ${limit} times in a row, so the task was stopped.`;

export async function runAgentLoop(deps: AgentLoopDeps, start: readonly AgentMessage[], signal: AbortSignal): Promise<AgentLoopResult> {
  const messages = [...start];
  const repeats = new RepeatDetector(deps.repeatLimit ?? 3);
  const repeated = repeatedResult(deps.repeatLimit ?? 3);
  let usage: Usage | undefined;
  for (let steps = 0; ; steps++) {
    if (signal.aborted) return { end: "stopped", messages, steps, ...(usage ? { usage } : {}) };
    if (steps >= deps.maxSteps) return { end: "max-steps", messages, steps, ...(usage ? { usage } : {}) };
    let answer: { content: string; calls: ToolCall[]; usage?: Usage; finishReason?: string };
    try {
      answer = await collect(deps.stream(await deps.request(messages), signal), deps.events);
    } catch (error) {
      return { end: signal.aborted ? "stopped" : "error", messages, steps, ...(signal.aborted ? {} : { error }), ...(usage ? { usage } : {}) };
    }
    if (answer.usage) usage = answer.usage;
    deps.events.answered(answer.content, answer.calls);
    if (answer.calls.length === 0) {
      messages.push({ role: "assistant", content: answer.content });
      return { end: "done", messages, steps, ...(usage ? { usage } : {}), ...(answer.finishReason ? { finishReason: answer.finishReason } : {}) };
    }
    messages.push({ role: "assistant", content: answer.content === "" ? null : answer.content, tool_calls: answer.calls });
    const end = await runCalls(deps, answer.calls, messages, { repeats, repeated }, signal);
    if (end) return { end, messages, steps: steps + 1, ...(usage ? { usage } : {}) };
  }
}

/** Runs one answer's calls in order; every call gets a result, so the conversation stays valid. */
async function runCalls(
  deps: AgentLoopDeps,
  calls: readonly ToolCall[],
  messages: AgentMessage[],
  { repeats, repeated }: { repeats: RepeatDetector; repeated: string },
  signal: AbortSignal,
): Promise<TaskEnd | undefined> {
  let end: TaskEnd | undefined;
  for (const call of calls) {
    const answer = (content: string) => messages.push({ role: "tool", tool_call_id: call.id, content });
    if (end !== undefined || signal.aborted) {
      answer(end === "repeated" ? repeated : stoppedResult);
      end ??= "stopped";
      continue;
    }
    if (repeats.record(call.function.name, call.function.arguments)) {
      end = "repeated";
      deps.events.rejected(call, repeated);
      answer(repeated);
      continue;
    }
    const checked = deps.validate(call);
    if (!checked.ok) {
      deps.events.rejected(call, checked.error);
      answer(`Error: ${checked.error}`);
      continue;
    }
    const outcome = await deps.run({ id: call.id, name: call.function.name, args: checked.args }, signal);
    answer(outcome.isError ? `Error: ${outcome.content}` : outcome.content);
  }
  return end ?? (signal.aborted ? "stopped" : undefined);
}


async function collect(stream: AsyncIterable<AgentStreamDelta>, events: AgentLoopEvents): Promise<{ content: string; calls: ToolCall[]; usage?: Usage; finishReason?: string }> {
  const assembler = new ToolCallAssembler();
  let content = "";
  let usage: Usage | undefined;
  let finishReason: string | undefined;
  for await (const delta of stream) {
    if (delta.usage) usage = delta.usage;
    if (delta.finishReason) finishReason = delta.finishReason;
    if (delta.toolCalls) assembler.add(delta.toolCalls);
    if (delta.content !== "") {
      content += delta.content;
      events.text(delta.content);
    }
  }
  return { content, calls: assembler.toolCalls(), ...(usage ? { usage } : {}), ...(finishReason ? { finishReason } : {}) };
}
