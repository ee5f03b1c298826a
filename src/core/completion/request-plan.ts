import { buildPrompt, type ContextBudget } from "./context";
import type { ContextChunk } from "./context-ring";
import { cursorContext, type CursorContext } from "./cursor-context";
import { selectTemplate, type FimTemplate } from "./templates";
import type { CompletionInput, CompletionSettings, CompletionStreamRequest } from "./types";

/** Everything decided about one completion before anything is sent. */
export interface RequestPlan {
  readonly template: FimTemplate;
  readonly cursor: CursorContext;
  readonly request: CompletionStreamRequest;
  readonly maxLines: number;
  /** What results depend on besides the text around the cursor. */
  readonly scope: string;
  readonly prefix: string;
  readonly suffix: string;
  /** Markdown, where a code fence is text of the document rather than a chat model's wrapping. */
  readonly fencesAreText: boolean;
}

const markdownLanguages = new Set(["markdown", "mdx", "quarto", "rmd", "prompt", "instructions", "chatmode"]);

export const defaultMaxLines = 8;
const maxServerStops = 4;

export function planRequest(
  input: CompletionInput,
  settings: CompletionSettings,
  chunks: readonly ContextChunk[],
  budget: ContextBudget,
): RequestPlan {
  if (settings.model.trim() === "") throw new NoModelError();
  const template = selectTemplate(settings.template, settings.model, settings.serverFim === true);
  const cursor = cursorContext(input);
  const prompt = buildPrompt(template, input, chunks, budget);
  // Mid-line, the server itself stops at the newline: no token is generated past what is shown.
  // OpenAI's API takes at most 4 stop sequences; the stream filters apply the template's whole list.
  const stop = [...(cursor.multiline ? [] : ["\n"]), ...prompt.stop].slice(0, maxServerStops);
  return {
    template,
    cursor,
    maxLines: cursor.multiline ? (settings.maxLines ?? defaultMaxLines) : 1,
    scope: `${input.uri}\u0001${settings.model}\u0001${template.id}`,
    prefix: input.prefix,
    suffix: input.suffix,
    fencesAreText: markdownLanguages.has(input.languageId),
    request: {
      model: settings.model,
      prompt: prompt.prompt,
      ...(prompt.suffix !== undefined ? { suffix: prompt.suffix } : {}),
      maxTokens: settings.maxTokens,
      temperature: settings.temperature ?? 0,
      stop,
    },
  };
}

export class NoModelError extends Error {
  override readonly name = "NoModelError";
  readonly kind = "no-model";
  constructor() {
    super('No completion model is set: choose one with "Wisp: Select Model" (setting wisp.completion.model).');
  }
}
