/**
 * Asking and answering: adds the user's message, streams the answer into the store (so it keeps
 * arriving while the panel is hidden), stops it on request, and records how it ended.
 */
import type { Usage } from "../api/usage";
import { stopwatch } from "../base/clock";
import { calibratedTokensPerChar } from "./context-trim";
import { contextOverflow, overflowAdvice, ratioAfterOverflow } from "./context-overflow";
import { cutNotice } from "./attachment-budget";
import { droppedNotice, planChatRequest, type ChatRequestBody, type ChatSetup } from "./chat-request";
import type { ChatStore } from "./chat-store";
import { ReasoningFold } from "./thinking";
import {
  lastQuestion,
  recoverInterrupted,
  withTurn,
  withUserTurn,
  withoutLastAnswer,
  type AssistantTurn,
  type Chat,
  type ChatError,
  type CodeAttachment,
} from "./conversation";

export interface ChatStreamDelta {
  readonly content: string;
  /** Thinking sent apart from the answer (reasoning_content): folded above it. */
  readonly reasoning?: string;
  readonly finishReason?: string;
  readonly usage?: Usage;
}

/** The network seam: the streamed answer to a request; must stop when `signal` aborts. */
export type ChatStream = (body: ChatRequestBody, signal: AbortSignal) => AsyncIterable<ChatStreamDelta>;

export interface ChatSessionEvents {
  /** The chat's turns or attachments changed: the view redraws it. */
  changed(chatId: string): void;
  /** More text of a streaming answer. */
  delta(chatId: string, turnId: string, offset: number, text: string): void;
  /** An answer ended (done, stopped, failed). */
  ended(chatId: string, turn: AssistantTurn): void;
  /** Something the user should read once (e.g. older turns left out). */
  notice(text: string): void;
}

export interface ChatSessionDeps {
  readonly store: ChatStore;
  readonly stream: ChatStream;
  /** Model, prompt and limits for the next request of the chat; throws (with a `kind`) when there is none. */
  readonly setup: (chat: Chat) => Promise<ChatSetup>;
  readonly events: ChatSessionEvents;
  readonly newId: () => string;
  readonly now: () => number;
  /** The monotonic clock an answer's duration is measured on (performance.now when not given). */
  readonly clock?: () => number;
}

export class ChatSession {
  private readonly running = new Map<string, AbortController>();
  /** Tokens per character per model, learned from the servers' prompt_tokens. */
  private readonly ratios = new Map<string, number>();
  private shuttingDown = false;

  constructor(private readonly deps: ChatSessionDeps) {}

  isStreaming(chatId: string): boolean {
    return this.running.has(chatId);
  }

  /** Adds code to the next message of the active chat. */
  attach(attachment: CodeAttachment): Chat {
    const chat = this.deps.store.active();
    const next = { ...chat, pending: [...chat.pending, attachment] };
    this.deps.store.put(next);
    this.deps.events.changed(chat.id);
    return next;
  }

  /** What is attached to the active chat's next message. */
  pending(): readonly CodeAttachment[] {
    return this.deps.store.active().pending;
  }

  /** Replaces what Wisp found for the next message; what the user attached stays, first. */
  setFound(found: readonly CodeAttachment[]): void {
    const chat = this.deps.store.active();
    this.deps.store.put({ ...chat, pending: [...chat.pending.filter((a) => a.source !== "found"), ...found] });
    this.deps.events.changed(chat.id);
  }

  detach(attachmentId: string): void {
    const chat = this.deps.store.active();
    this.deps.store.put({ ...chat, pending: chat.pending.filter((a) => a.id !== attachmentId) });
    this.deps.events.changed(chat.id);
  }

  /**
   * Sends a message (with the pending attachments) in the active chat and streams the answer.
   * Resolves when the answer ended; false when nothing was sent (empty, or an answer is running).
   */
  async send(text: string): Promise<boolean> {
    const chat = this.deps.store.active();
    if (this.isStreaming(chat.id) || (text.trim() === "" && chat.pending.length === 0)) return false;
    const turn = { id: this.deps.newId(), role: "user" as const, text, attachments: chat.pending, createdAt: this.deps.now() };
    const next = withUserTurn(chat, turn);
    this.deps.store.put(next);
    await this.answer(next);
    return true;
  }

  /** Answers the last question of the active chat again, replacing the previous answer. */
  async regenerate(): Promise<boolean> {
    const chat = this.deps.store.active();
    if (this.isStreaming(chat.id) || lastQuestion(chat) === undefined) return false;
    const next = withoutLastAnswer(chat, this.deps.now());
    this.deps.store.put(next);
    await this.answer(next);
    return true;
  }

  stop(chatId: string): void {
    this.running.get(chatId)?.abort();
  }

  /**
   * Ends every answer because the extension is shutting down. They are recorded as interrupted,
   * with their text so far, right away: the process may end before the aborted streams unwind.
   */
  shutdown(): void {
    this.shuttingDown = true;
    for (const [chatId, controller] of this.running) {
      const chat = this.deps.store.get(chatId);
      if (chat) this.deps.store.put(recoverInterrupted(chat));
      controller.abort();
    }
  }

  private async answer(chat: Chat): Promise<void> {
    const { store, events } = this.deps;
    const controller = new AbortController();
    this.running.set(chat.id, controller);
    let turn: AssistantTurn = { id: this.deps.newId(), role: "assistant", text: "", model: "", status: "streaming", createdAt: this.deps.now() };
    // The footer's duration is finishedAt - createdAt: measured, not read off the wall clock twice.
    const took = stopwatch(this.deps.clock);
    const save = (when: "now" | "soon") => {
      const current = store.get(chat.id);
      if (current === undefined) return controller.abort(); // deleted while answering
      store.put(withTurn(current, turn, this.deps.now()), when);
    };
    save("now");
    events.changed(chat.id);
    let usage: Usage | undefined;
    let finishReason: string | undefined;
    let sent: { model: string; body: ChatRequestBody } | undefined;
    try {
      const setup = await this.deps.setup(chat);
      const planned = planChatRequest({ ...setup, tokensPerChar: this.ratios.get(setup.model) }, chat.turns);
      sent = { model: setup.model, body: planned.body };
      turn = {
        ...turn,
        model: setup.model,
        ...(planned.body.max_tokens === undefined ? {} : { maxTokens: planned.body.max_tokens }),
        ...(planned.droppedMessages > 0 ? { droppedMessages: planned.droppedMessages } : {}),
        ...(planned.cuts.length > 0 ? { contextCuts: planned.cuts } : {}),
      };
      save("now");
      events.changed(chat.id);
      if (planned.droppedMessages > 0) events.notice(droppedNotice(planned.droppedMessages, setup));
      if (planned.cuts.length > 0) events.notice(cutNotice(planned.cuts, setup.contextTokens));
      const fold = new ReasoningFold();
      const append = (text: string) => {
        if (text === "") return;
        const offset = turn.text.length;
        turn = { ...turn, text: turn.text + text };
        // The first text is stored at once: an answer cut off early still keeps what was shown.
        save(offset === 0 ? "now" : "soon");
        events.delta(chat.id, turn.id, offset, text);
      };
      try {
        for await (const delta of this.deps.stream(planned.body, controller.signal)) {
          if (delta.usage) usage = delta.usage;
          if (delta.finishReason) finishReason = delta.finishReason;
          append(fold.next(delta.reasoning ?? "", delta.content));
        }
      } finally {
        append(fold.end());
      }
      if (usage) this.learn(setup.model, planned.body, usage);
      turn = { ...turn, status: "done" };
    } catch (error) {
      if (!controller.signal.aborted) turn = { ...turn, status: "error", error: this.failed(error, sent) };
      else turn = { ...turn, status: this.shuttingDown ? "interrupted" : "stopped" };
    } finally {
      this.running.delete(chat.id);
    }
    turn = { ...turn, finishedAt: turn.createdAt + Math.round(took()), ...(usage ? { usage } : {}), ...(finishReason ? { finishReason } : {}) };
    save("now");
    events.ended(chat.id, turn);
  }

  /** The error as shown; a refusal for the context's length also corrects the estimate the next request is cut by. */
  private failed(error: unknown, sent: { model: string; body: ChatRequestBody } | undefined): ChatError {
    const shown = toChatError(error);
    const overflow = sent && contextOverflow(error);
    if (!sent || !overflow) return shown;
    this.ratios.set(sent.model, ratioAfterOverflow(sent.body.messages, overflow, this.ratios.get(sent.model)));
    return { ...shown, message: `${shown.message} ${overflowAdvice(sent.body.messages)}` };
  }

  private learn(model: string, body: ChatRequestBody, usage: Usage): void {
    const ratio = calibratedTokensPerChar(body.messages, usage.prompt_tokens);
    if (ratio !== undefined) this.ratios.set(model, ratio);
  }
}

/** The error as the view shows it: its kind (WispError kinds) and a readable message. */
export function toChatError(error: unknown): ChatError {
  const kind = typeof (error as { kind?: unknown })?.kind === "string" ? (error as { kind: string }).kind : "error";
  const message = error instanceof Error ? error.message : String(error);
  return { kind, message };
}
