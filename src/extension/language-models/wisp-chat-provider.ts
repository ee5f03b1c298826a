import * as vscode from "vscode";
import { LinkedAbortController } from "../../core/base/cancellation";
import { chatModelEntries } from "../../core/language-models/chat-model-entries";
import { lmChatRequest, toAgentMessages } from "../../core/language-models/lm-request";
import { lmResponseParts } from "../../core/language-models/lm-response";
import { TokenEstimator } from "../../core/language-models/token-estimate";
import { parseBaseUrl } from "../../client/base-url";
import { isWispError } from "../../client/wisp-error";
import type { ClientFactory } from "../client-factory";
import type { Logger } from "../logger";
import type { Settings } from "../settings";
import { fromVscodeMessage, toVscodePart } from "./vscode-lm-parts";

export interface WispChatProviderDeps {
  readonly clients: ClientFactory;
  readonly settings: Settings;
  readonly log: Logger;
}

const listTimeoutMs = 10_000;

/** Offers `provider`'s models in the editor's chat, where the editor has the API (see hasLanguageModelProviderApi). */
export function registerChatProvider(vendor: string, provider: WispChatProvider): vscode.Disposable {
  return vscode.lm.registerLanguageModelChatProvider(vendor, provider);
}

/**
 * The configured server's chat models in the editor's own chat (vendor `wisp`): listed from
 * `/v1/models`, answered through `/v1/chat/completions` with Wisp's client, key and error messages.
 */
export class WispChatProvider implements vscode.LanguageModelChatProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly tokens = new TokenEstimator();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(private readonly deps: WispChatProviderDeps) {}

  /** The server, the key or the server's models may have changed: the editor lists them again. */
  refresh(): void {
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(_options: vscode.PrepareLanguageModelChatModelOptions, token: vscode.CancellationToken): Promise<vscode.LanguageModelChatInformation[]> {
    const linked = new LinkedAbortController(token);
    try {
      const models = await (await this.deps.clients.create({ timeoutMs: listTimeoutMs })).listModels(linked.signal);
      const { baseUrl, chat } = this.deps.settings.value;
      return chatModelEntries(models, { server: parseBaseUrl(baseUrl).display.replace(/^https?:\/\//, ""), contextTokens: chat.contextTokens, maxTokens: chat.maxTokens });
    } catch (error) {
      // The editor lists no Wisp model then, and shows this message beside Wisp in Manage Models.
      this.deps.log.warn(`language models: listing failed: ${(error as Error).message}`);
      throw error;
    } finally {
      linked.dispose();
    }
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const body = lmChatRequest({
      model: model.id,
      messages: messages.map(fromVscodeMessage),
      tools: options.tools,
      toolsRequired: options.toolMode === vscode.LanguageModelChatToolMode.Required,
      modelOptions: options.modelOptions,
      temperature: this.deps.settings.value.chat.temperature,
      maxTokens: model.maxOutputTokens,
    });
    this.deps.log.info(`language models: ${model.id}, ${body.messages.length} messages, ${body.tools?.length ?? 0} tools`);
    const linked = new LinkedAbortController(token);
    try {
      const client = await this.deps.clients.create();
      for await (const part of lmResponseParts(client.streamChat(body, linked.signal), (usage) => this.tokens.learn(body, usage))) {
        progress.report(toVscodePart(part));
      }
    } catch (error) {
      // A request the caller stopped ends quietly; the server saw its connection close.
      if (token.isCancellationRequested) return;
      throw this.failure(error);
    } finally {
      linked.dispose();
    }
  }

  async provideTokenCount(model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage): Promise<number> {
    return this.tokens.count(model.id, typeof text === "string" ? text : toAgentMessages([fromVscodeMessage(text)]));
  }

  dispose(): void {
    this.changed.dispose();
  }

  /** Wisp's message, as the editor's error kinds where one fits (a model gone from the server, a rate limit). */
  private failure(error: unknown): Error {
    const message = error instanceof Error ? error.message : String(error);
    this.deps.log.warn(`language models: request failed: ${message}`);
    if (isWispError(error, "unknown-model")) {
      this.refresh();
      return vscode.LanguageModelError.NotFound(message);
    }
    if (isWispError(error, "rate-limited")) return vscode.LanguageModelError.Blocked(message);
    return error instanceof Error ? error : new Error(message);
  }
}
