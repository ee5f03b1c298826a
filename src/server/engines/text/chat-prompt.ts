// Renders chat messages with the model's own chat template from the GGUF.
import { JinjaTemplateChatWrapper, type ChatHistoryItem, type LlamaModel, type Token } from "node-llama-cpp";
import { EngineInputError } from "./engine-input-error";

export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

function toHistory(messages: readonly ChatMessage[]): ChatHistoryItem[] {
  const history: ChatHistoryItem[] = messages.map((m) =>
    m.role === "assistant" ? { type: "model", response: [m.content] } : { type: m.role, text: m.content },
  );
  // An empty model turn at the end makes the template render the generation prompt.
  history.push({ type: "model", response: [] });
  return history;
}

export function renderChatPrompt(model: LlamaModel, messages: readonly ChatMessage[]): Token[] {
  const template = model.fileInfo.metadata.tokenizer.chat_template;
  if (!template) throw new EngineInputError("this model has no chat template: use /v1/completions", "model");
  const wrapper = new JinjaTemplateChatWrapper({ template });
  return wrapper.generateContextState({ chatHistory: toHistory(messages) }).contextText.tokenize(model.tokenizer);
}
