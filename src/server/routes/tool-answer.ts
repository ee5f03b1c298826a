// Answers a chat request with tools: `message.tool_calls` (or the older `function_call`) in one
// JSON body, or as `delta.tool_calls` in a stream: the call's id, type and name first, then its
// arguments in pieces as they are generated, and `finish_reason: "tool_calls"` at the end.
import { randomUUID } from "node:crypto";
import { CallStream, parseCall, type CallDelta, type ParsedCall } from "../engines/text/tool-call-layout";
import type { FinishReason } from "../engines/text/types";
import { markFirstToken } from "../metrics/request-labels";
import { SseWriter } from "./sse-writer";
import { chunkBase, openEventStream, settleComplete, settleStream, usageOf, type AnswerContext, type JobRequest, type ResponseBase } from "./text-response";
import { runTools, type ToolChoiceResult, type ToolPlan } from "./tool-run";

export interface ToolAnswer {
  job: JobRequest;
  plan: ToolPlan;
  /** Answer with `function_call` rather than `tool_calls`. */
  legacy: boolean;
  stream: { enabled: boolean; includeUsage: boolean };
}

type ChatFinish = FinishReason | "tool_calls" | "function_call";

const callId = () => `call_${randomUUID().replaceAll("-", "").slice(0, 24)}`;

function finishOf(legacy: boolean, reason: FinishReason, call: ParsedCall | undefined): ChatFinish {
  if (!call || reason === "length") return reason;
  return legacy ? "function_call" : "tool_calls";
}

function message(choice: ToolChoiceResult, call: ParsedCall | undefined, legacy: boolean) {
  const fn = call && { name: call.name, arguments: call.arguments };
  return {
    role: "assistant",
    // Text the model wrote before its call stays beside it; a call alone has no content.
    content: call && choice.content.trim() === "" ? null : choice.content,
    refusal: null,
    // Left out when there is no call, as OpenAI does (an empty list sent back is refused there).
    ...(fn && !legacy ? { tool_calls: [{ id: callId(), type: "function", function: fn }] } : {}),
    function_call: fn && legacy ? fn : null,
  };
}

export async function answerTools(ctx: AnswerContext, answer: ToolAnswer): Promise<void> {
  await (answer.stream.enabled ? streamTools : completeTools)(ctx, answer);
}

async function completeTools(ctx: AnswerContext, { job, plan, legacy }: ToolAnswer): Promise<void> {
  const result = await settleComplete(ctx, runTools(ctx.deps, ctx.entry, job, plan, ctx.signal, {}));
  if (!result) return;
  await ctx.reply.send({
    ...ctx.base,
    object: "chat.completion",
    choices: result.choices.map((c, index) => {
      const call = c.callText === undefined ? undefined : parseCall(plan.layout, plan.names, c.callText);
      return { index, message: message(c, call, legacy), logprobs: null, finish_reason: finishOf(legacy, c.finishReason, call), stop_reason: null };
    }),
    usage: usageOf(result),
  });
}

const chunk = (base: ResponseBase, index: number, delta: object, finish: ChatFinish | null = null) => ({
  ...base,
  object: "chat.completion.chunk",
  choices: [{ index, delta, logprobs: null, finish_reason: finish }],
});

function callDelta(delta: CallDelta, legacy: boolean): object {
  const fn = delta.name === undefined ? { arguments: delta.arguments ?? "" } : { name: delta.name, arguments: delta.arguments ?? "" };
  if (legacy) return { function_call: fn };
  return { tool_calls: [delta.name === undefined ? { index: 0, function: fn } : { index: 0, id: callId(), type: "function", function: fn }] };
}

async function streamTools(ctx: AnswerContext, { job, plan, legacy, stream }: ToolAnswer): Promise<void> {
  const { reply, signal } = ctx;
  const base = chunkBase(ctx.base, stream.includeUsage);
  const sse = new SseWriter(reply.raw);
  const calls = Array.from({ length: job.n }, () => new CallStream(plan.layout, plan.names));
  const sendCall = (i: number, delta: CallDelta | undefined) => delta && sse.send(chunk(base, i, callDelta(delta, legacy)));
  const generation = runTools(ctx.deps, ctx.entry, job, plan, signal, {
    onPromptReady: (stats) => {
      openEventStream(reply, stats);
      for (let i = 0; i < job.n; i++) sse.send(chunk(base, i, { role: "assistant", content: plan.forced ? null : "" }));
    },
    onContent: (i, text) => {
      markFirstToken(ctx.request);
      sse.send(chunk(base, i, { content: text }));
    },
    onCall: (i, text) => {
      markFirstToken(ctx.request);
      sendCall(i, calls[i]!.push(text));
    },
  });
  const result = await settleStream(ctx, sse, generation);
  if (!result) return;
  result.choices.forEach((c, i) => {
    sendCall(i, calls[i]!.end());
    const call = c.callText === undefined ? undefined : parseCall(plan.layout, plan.names, c.callText);
    sse.send(chunk(base, i, {}, finishOf(legacy, c.finishReason, call)));
  });
  if (stream.includeUsage) sse.send({ ...base, object: "chat.completion.chunk", choices: [], usage: usageOf(result) });
  sse.end();
}
