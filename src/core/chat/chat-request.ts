/**
 * The one place a chat becomes a request body: what is sent and what View as Code shows are the
 * same object, so the snippet is the exact request.
 */
import type { ChatMessage, ChatRequest } from "../api/chat";
import { requestSnippet, snippetLanguages, type SnippetLanguage } from "../snippets/request-snippets";
import type { ChatTurn } from "./conversation";
import { fitLastQuestion } from "./attachment-budget";
import { trimToContext } from "./context-trim";
import { buildMessages } from "./prompt";

export interface ChatSetup {
  readonly model: string;
  readonly systemPrompt: string;
  readonly temperature: number;
  readonly maxTokens: number;
  /** The model's context window in tokens (from the server, or the setting). */
  readonly contextTokens: number;
  /** Where contextTokens came from, for the notice shown when turns are dropped. */
  readonly contextSource: "server" | "setting" | "default";
  readonly tokensPerChar?: number;
}

export type ChatRequestBody = ChatRequest & { stream: true };

export interface PlannedRequest {
  readonly body: ChatRequestBody;
  /** Earlier messages left out to fit the context. */
  readonly droppedMessages: number;
  /** False when the system prompt and the newest message alone are over the budget (sent anyway). */
  readonly fits: boolean;
  readonly promptTokens: number;
  readonly promptBudget: number;
  /** Attached code of the question shortened or left out to fit (as the user reads it). */
  readonly cuts: readonly string[];
}

export function planChatRequest(setup: ChatSetup, turns: readonly ChatTurn[]): PlannedRequest {
  const fitted = fitLastQuestion(setup, turns);
  const all = buildMessages(setup.systemPrompt, fitted.turns);
  const trimmed = trimToContext(all, setup);
  return {
    body: requestBody(setup, trimmed.messages),
    droppedMessages: trimmed.droppedMessages,
    fits: trimmed.fits,
    promptTokens: trimmed.promptTokens,
    promptBudget: trimmed.promptBudget,
    cuts: fitted.cuts,
  };
}

function requestBody(setup: ChatSetup, messages: ChatMessage[]): ChatRequestBody {
  return {
    model: setup.model,
    messages,
    temperature: setup.temperature,
    max_tokens: setup.maxTokens,
    stream: true,
    stream_options: { include_usage: true },
  };
}

/** What the user reads when older turns were left out. */
export function droppedNotice(droppedMessages: number, setup: Pick<ChatSetup, "contextTokens" | "contextSource">): string {
  const source = { server: "as the server reports it", setting: "from wisp.chat.contextTokens", default: "assumed; set wisp.chat.contextTokens" }[setup.contextSource];
  const what = droppedMessages === 1 ? "1 earlier message was" : `${droppedMessages} earlier messages were`;
  return `${what} left out to fit the model's context of ${setup.contextTokens} tokens (${source}).`;
}

export interface CodeSnippet {
  readonly language: SnippetLanguage;
  readonly label: string;
  readonly code: string;
}

const labels: Record<SnippetLanguage, string> = { curl: "curl", typescript: "TypeScript", python: "Python" };

/** The request as curl, TypeScript and Python (both on the openai SDK), the key read from WISP_API_KEY. */
export function chatSnippets(body: ChatRequestBody, baseUrl: string): CodeSnippet[] {
  return snippetLanguages.map((language) => ({
    language,
    label: labels[language],
    code: requestSnippet(language, { endpoint: "chat.completions", body: { ...body } }, { baseUrl }),
  }));
}
