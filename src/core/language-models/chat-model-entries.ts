/**
 * The server's chat models as the editor's own chat lists them (VS Code's Language Model Chat
 * Provider): one entry per chat model, with its context window split into prompt and answer.
 */
import type { ModelInfo } from "../api/models";
import { chatModels } from "../chat/chat-models";

/** The fields of VS Code's LanguageModelChatInformation, without `vscode`. */
export interface ChatModelEntry {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly detail: string;
  readonly tooltip: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly toolCalling: boolean; readonly imageInput: boolean };
}

export interface EntrySettings {
  /** The server as the user knows it (host and port), shown beside each model. */
  readonly server: string;
  /** wisp.chat.contextTokens: 0 means as the server reports it. */
  readonly contextTokens: number;
  /** wisp.chat.maxTokens: the longest answer asked for. */
  readonly maxTokens: number;
}

/** The panel's assumption too, when neither the server nor wisp.chat.contextTokens says the window. */
export const assumedContextTokens = 4096;

export function chatModelEntries(models: readonly ModelInfo[], settings: EntrySettings): ChatModelEntry[] {
  return chatModels(models).map((model) => {
    const context = settings.contextTokens > 0 ? settings.contextTokens : (model.context_length ?? assumedContextTokens);
    // As the panel does: at most half the window goes to the answer.
    const output = Math.max(1, Math.min(settings.maxTokens, Math.floor(context / 2)));
    // Servers that do not say are assumed to take tools; a server that lists its parameters without them does not.
    const toolCalling = model.tools !== false;
    return {
      id: model.id,
      name: model.id,
      family: model.id,
      version: model.id,
      detail: `Wisp · ${settings.server}`,
      tooltip: `${model.id} on ${settings.server}: ${context} tokens of context${model.context_length === undefined ? " (assumed)" : ""}${toolCalling ? "" : ", no tool calling"}`,
      maxInputTokens: context - output,
      maxOutputTokens: output,
      capabilities: { toolCalling, imageInput: false },
    };
  });
}
