/** Which listed models the chat offers, and which one it uses. */
import type { ModelInfo } from "../api/models";

/** Names that mark image, speech and embedding models on servers that do not say a model's kind. */
const notChat = /(^|[-_/.])(dall-e|gpt-image|stable-diffusion|sd-?xl|sd3|flux|diffusion|whisper|tts|embed(ding)?s?)([-_/.]|\d|$)/i;

export function chatModels(models: readonly ModelInfo[]): ModelInfo[] {
  return models.filter((m) => (m.kind ?? "text") === "text" && !notChat.test(m.id));
}

/** The configured model, else the first chat model listed; "" when neither is known. */
export function chosenChatModel(setting: string, models: readonly ModelInfo[]): string {
  return setting || chatModels(models)[0]?.id || "";
}
