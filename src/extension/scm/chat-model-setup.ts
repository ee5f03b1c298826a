import { ChatModelList } from "../chat/chat-models";
import type { ClientFactory } from "../client-factory";
import type { Logger } from "../logger";
import type { Settings } from "../settings";

/** When neither the server nor wisp.chat.contextTokens says the context window. */
const assumedContextTokens = 4096;

export interface ChatModelSetup {
  readonly model: string;
  readonly temperature: number;
  readonly contextTokens: number;
}

/**
 * The chat model a one-off request (a commit message, a review) goes to, with its context window:
 * wisp.chat.model or the server's first chat model, as the chat panel picks them.
 */
export class ChatModelChoice {
  private readonly models: ChatModelList;

  constructor(private readonly settings: Settings, clients: ClientFactory, log: Logger) {
    this.models = new ChatModelList(clients, log);
  }

  async setup(): Promise<ChatModelSetup> {
    const { chat, baseUrl } = this.settings.value;
    const model = await this.models.choose(chat.model, baseUrl);
    const reported = this.models.all.find((m) => m.id === model)?.context_length;
    const contextTokens = chat.contextTokens > 0 ? chat.contextTokens : (reported ?? assumedContextTokens);
    return { model, temperature: chat.temperature, contextTokens };
  }

  /** The server or key changed: list the models again next time. */
  invalidate(): void {
    this.models.invalidate();
  }
}
