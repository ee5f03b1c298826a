// Generation for a chat request with tools. A forced call (`required`, or a named function) is
// generated under the call grammar from the first token. With `auto` the model writes freely,
// with its call marker as an extra stop string; a choice that stops there goes on under the call
// grammar from where it stopped (the text before the marker stays as the message's content).
import type { LlamaGrammar } from "node-llama-cpp";
import type { ServerDeps } from "../deps";
import { tokenizeText } from "../engines/text/inert-text";
import { callMarker, type CallLayout } from "../engines/text/tool-call-layout";
import { addUsage, NOTHING_USED, withPartialUsage } from "../engines/text/partial-usage";
import type { FinishReason, GenerationRequest, GenerationResult } from "../engines/text/types";
import type { ModelEntry } from "../models/registry";
import type { JobRequest } from "./text-response";

export interface ToolPlan {
  layout: CallLayout;
  /** The names a call may have (one when a function is named). */
  names: string[];
  forced: boolean;
  /** One call to one of `names`, in `layout`. */
  grammar: LlamaGrammar;
}

export interface ToolChoiceResult {
  content: string;
  /** The call as generated, when the choice made one. */
  callText?: string;
  finishReason: FinishReason;
}

export type ToolRunResult = Omit<GenerationResult, "choices"> & { choices: ToolChoiceResult[] };

export interface ToolRunEvents {
  onPromptReady?: GenerationRequest["onPromptReady"];
  onContent?: (choice: number, text: string) => void;
  onCall?: (choice: number, text: string) => void;
}

export async function runTools(deps: ServerDeps, entry: ModelEntry, job: JobRequest, plan: ToolPlan, signal: AbortSignal, events: ToolRunEvents): Promise<ToolRunResult> {
  const engine = deps.textEngine;
  const prompt = job.prompts[0]!;
  const request = { ...job, prompt, signal, topLogprobs: undefined, onPromptReady: events.onPromptReady };
  const callSampling = { ...job.sampling, grammar: plan.grammar };
  if (plan.forced) {
    // Stop strings could cut the call short of valid JSON: the grammar decides where it ends.
    const result = await engine.generate(entry.id, entry.path, { ...request, stop: [], sampling: callSampling, onText: (i, text) => events.onCall?.(i, text) });
    return { ...result, choices: result.choices.map((c) => ({ content: "", callText: c.text, finishReason: c.finishReason })) };
  }
  const marker = callMarker(plan.layout);
  // A format for the answer (response_format) must leave the model free to call a tool instead.
  const answerGrammar = job.sampling.grammar;
  const sampling = answerGrammar ? { ...job.sampling, grammar: await engine.answerOrCallGrammar(answerGrammar, marker) } : job.sampling;
  const free = await engine.generate(entry.id, entry.path, { ...request, sampling, stop: [...job.stop, marker], onText: (i, text) => events.onContent?.(i, text) });
  const total: ToolRunResult = { ...free, prompt: { ...free.prompt }, choices: [] };
  const model = await engine.model(entry.id, entry.path);
  const limit = await engine.contextSize(entry.id, entry.path);
  for (const [i, choice] of free.choices.entries()) {
    if (choice.stopString !== marker || signal.aborted) {
      total.choices.push({ content: choice.text, finishReason: choice.finishReason });
      continue;
    }
    const callPrompt = [...prompt, ...tokenizeText(model, choice.text)];
    // A choice that filled the context before its call has no room left for one: it ends there, as
    // a choice without tools would, rather than failing the request after its tokens were spent.
    if (callPrompt.length >= limit) {
      total.choices.push({ content: choice.text, finishReason: "length" });
      continue;
    }
    const call = await engine
      .generate(entry.id, entry.path, {
        ...request,
        prompt: callPrompt,
        n: 1,
        maxTokens: Math.max(1, job.maxTokens - choice.tokens),
        stop: [],
        sampling: { ...callSampling, seed: job.sampling.seed === undefined ? undefined : job.sampling.seed + i },
        onPromptReady: undefined,
        onText: (_, text) => events.onCall?.(i, text),
      })
      .catch((error: unknown) => {
        // The free text and the calls before this one were generated: they are still counted.
        throw withPartialUsage(error, total);
      });
    const made = call.choices[0]!;
    // The call's prompt is the request's plus the free text the model wrote: only its completion
    // tokens are the request's (the prompt stats say how the request's own prompt was evaluated).
    Object.assign(total, addUsage(total, { ...call, promptTokens: 0, prompt: NOTHING_USED.prompt }));
    total.choices.push({ content: choice.text, callText: made.text, finishReason: made.finishReason });
  }
  return total;
}
