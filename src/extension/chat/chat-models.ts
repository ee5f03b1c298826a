import type { ModelInfo } from "../../core/api/models";
import { chatModels, chosenChatModel } from "../../core/chat/chat-models";
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

  /**
   * The model a request uses: the setting, else the server's first chat model. The list is
   * fetched first when it never was, or when no model is set and it holds no chat model. Throws
   * (with the listing's failure or "no-model" as kind) when there is none.
   */
  async choose(setting: string, baseUrl: string): Promise<string> {
    if (!this.loaded || (setting === "" && this.chat.length === 0)) await this.refresh();
    const model = chosenChatModel(setting, this.models);
    if (model !== "") return model;
    if (this.failure) throw Object.assign(new Error(this.failure.message), { kind: this.failure.kind });
    throw Object.assign(new Error(`The server at ${baseUrl} lists no chat model. Pick one with Select Model, or set wisp.chat.model.`), { kind: "no-model" });
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
