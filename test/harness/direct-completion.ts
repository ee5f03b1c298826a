import { defaultBudget } from "../../src/core/completion/context";
import { postprocess } from "../../src/core/completion/postprocess";
import { planRequest } from "../../src/core/completion/request-plan";
import type { CompletionInput } from "../../src/core/completion/types";
import type { LocalTextServer } from "./local-text-server";

/** Where the cursor is in a plain-text file: the pipeline writes no extra context into its prompt. */
export interface PlainTextCursor {
  uri: string;
  path: string;
  /** The document's text before and after the cursor. */
  before: string;
  after: string;
}

export interface DirectCompletion {
  /** What the server answered, unfiltered. */
  raw: string;
  /** The answer post-processed as the pipeline does it: the ghost text expected for it... */
  ghost: string;
  /** ...and how many characters after the cursor it replaces. */
  replace: number;
  completionTokens: number;
}

/**
 * The request the completion pipeline makes at `cursor` (default settings, `auto` template),
 * made directly and not streamed. The answer is deterministic (temperature 0), so it is what the
 * server gave the pipeline.
 */
export async function directCompletion(server: LocalTextServer, cursor: PlainTextCursor, maxTokens: number): Promise<DirectCompletion> {
  const input: CompletionInput = {
    uri: cursor.uri,
    path: cursor.path,
    languageId: "plaintext",
    prefix: cursor.before,
    prefixOffset: 0,
    suffix: cursor.after,
    indent: { insertSpaces: true, tabSize: 4 },
    manual: false,
  };
  const plan = planRequest(input, { model: server.model, template: "auto", maxTokens, debounceMs: 0 }, [], defaultBudget);
  const { request } = plan;
  const body = await server.complete({
    model: request.model,
    prompt: request.prompt,
    ...(request.suffix !== undefined ? { suffix: request.suffix } : {}),
    max_tokens: request.maxTokens,
    temperature: request.temperature,
    ...(request.stop.length > 0 ? { stop: request.stop } : {}),
  });
  const raw = body.choices[0]?.text ?? "";
  const { text, replace } = postprocess(raw, plan.cursor, plan);
  return { raw, ghost: text, replace, completionTokens: body.usage.completion_tokens };
}
