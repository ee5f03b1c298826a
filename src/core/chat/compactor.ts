/**
 * Runs a compaction: streams the model's summary into a turn at the end of the chat (so the user
 * sees it arrive), then replaces every earlier turn with it. A failed or stopped compaction takes
 * its turn away again and leaves the conversation as it was.
 */
import type { ChatSetup } from "./chat-request";
import type { ChatSessionEvents, ChatStream } from "./chat-session";
import { toChatError } from "./chat-session";
import type { ChatStore } from "./chat-store";
import { compactionMessages, filesChanged, openTodos } from "./compaction";
import { withTurn, type AssistantTurn, type Chat } from "./conversation";

export interface CompactorDeps {
  readonly store: ChatStore;
  readonly stream: ChatStream;
  readonly setup: () => Promise<ChatSetup>;
  readonly events: ChatSessionEvents;
  readonly newId: () => string;
  readonly now: () => number;
}

/** `stopped`: the user stopped it (a question waiting on it is not sent); any other failure leaves it out. */
export type CompactionResult = { readonly ok: true; readonly turn: AssistantTurn } | { readonly ok: false; readonly reason: string; readonly stopped?: true };

export class Compactor {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly deps: CompactorDeps) {}

  isRunning(chatId: string): boolean {
    return this.running.has(chatId);
  }

  stop(chatId: string): void {
    this.running.get(chatId)?.abort();
  }

  shutdown(): void {
    for (const controller of this.running.values()) controller.abort();
  }

  /** Compacts the chat; `auto` when done by itself (the transcript says so). */
  async compact(chatId: string, options: { readonly auto: boolean; readonly focus?: string }): Promise<CompactionResult> {
    const { store, events } = this.deps;
    const chat = store.get(chatId);
    if (chat === undefined || this.running.has(chatId)) return { ok: false, reason: "The conversation is busy." };
    const replaced = chat.turns;
    if (!replaced.some((t) => t.role === "user")) return { ok: false, reason: "There is nothing to compact yet." };
    const controller = new AbortController();
    this.running.set(chatId, controller);
    let turn: AssistantTurn = {
      id: this.deps.newId(),
      role: "assistant",
      text: "",
      model: "",
      status: "streaming",
      createdAt: this.deps.now(),
      compaction: { replacedTurns: replaced.length, auto: options.auto, files: filesChanged(replaced), todos: openTodos(replaced) },
    };
    const save = (when: "now" | "soon" = "now") => {
      const current = store.get(chatId);
      if (current === undefined) return controller.abort();
      store.put(withTurn(current, turn, this.deps.now()), when);
    };
    save();
    events.changed(chatId);
    try {
      const setup = await this.deps.setup();
      turn = { ...turn, model: setup.model };
      const messages = compactionMessages({ turns: replaced, focus: options.focus, contextTokens: setup.contextTokens, maxTokens: setup.maxTokens, tokensPerChar: setup.tokensPerChar });
      const body = { model: setup.model, messages, temperature: setup.temperature, max_tokens: setup.maxTokens, stream: true as const, stream_options: { include_usage: true } };
      for await (const delta of this.deps.stream(body, controller.signal)) {
        if (delta.usage) turn = { ...turn, usage: delta.usage };
        if (delta.content === "") continue;
        const offset = turn.text.length;
        turn = { ...turn, text: turn.text + delta.content };
        save(offset === 0 ? "now" : "soon");
        events.delta(chatId, turn.id, offset, delta.content);
      }
      if (turn.text.trim() === "") throw new Error("The model answered with an empty summary.");
    } catch (error) {
      this.running.delete(chatId);
      const current = store.get(chatId);
      if (current) store.put({ ...current, turns: current.turns.filter((t) => t.id !== turn.id), updatedAt: this.deps.now() });
      events.changed(chatId);
      if (controller.signal.aborted) return { ok: false, reason: "Compacting was stopped; the conversation is unchanged.", stopped: true };
      return { ok: false, reason: `Compacting failed (${toChatError(error).message}); the conversation is unchanged.` };
    }
    this.running.delete(chatId);
    turn = { ...turn, status: "done", finishedAt: this.deps.now() };
    const current = store.get(chatId) ?? chat;
    // Turns added while the summary streamed (none in practice: the chat is busy) stay after it.
    const later = current.turns.filter((t) => t.id !== turn.id && !replaced.some((r) => r.id === t.id));
    const next: Chat = { ...current, turns: [turn, ...later], updatedAt: this.deps.now() };
    store.put(next);
    events.ended(chatId, turn);
    return { ok: true, turn };
  }
}
