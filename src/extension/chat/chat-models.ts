import type { ModelInfo } from "../../core/api/models";
import { chatModels } from "../../core/chat/chat-models";
import type { ChatError } from "../../core/chat/conversation";
import { toChatError } from "../../core/chat/chat-session";
import type { ClientFactory } from "../client-factory";
import type { Logger } from "../logger";

const listTimeoutMs = 10_000;

/** The server's models as the chat sees them: listed on demand, kept until the next refresh. */
export class ChatModelList {
  private models: readonly ModelInfo[] = [];
  private failure: ChatError | undefined;
  private pending: Promise<void> | undefined;
  private generation = 0;

  constructor(private readonly clients: ClientFactory, private readonly log: Logger) {}

  get all(): readonly ModelInfo[] { return this.models; }
  get chat(): ModelInfo[] { return chatModels(this.models); }
  get error(): ChatError | undefined { return this.failure; }
  get loaded(): boolean { return this.models.length > 0 || this.failure !== undefined; }

  /** Lists the models again (a refresh already running is shared); never throws. */
  refresh(): Promise<void> {
    this.pending ??= this.load().finally(() => (this.pending = undefined));
    return this.pending;
  }

  /** Forget the list (base URL or key changed): the next refresh starts over. */
  invalidate(): void {
    this.generation++;
    this.models = [];
    this.failure = undefined;
    this.pending = undefined;
  }

  private async load(): Promise<void> {
    const generation = this.generation;
    try {
      const models = await (await this.clients.create({ timeoutMs: listTimeoutMs })).listModels();
      if (generation !== this.generation) return;
      this.models = models;
      this.failure = undefined;
    } catch (error) {
      if (generation !== this.generation) return;
      this.failure = toChatError(error);
      this.log.warn(`chat: listing models failed: ${this.failure.message}`);
    }
  }
}
