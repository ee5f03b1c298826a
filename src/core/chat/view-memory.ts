/**
 * Where the user was in each chat (scroll position) and what they had typed but not sent, kept
 * with the workspace's chats so that a hidden, reloaded or reopened panel comes back as it was.
 */
import type { ChatStorage } from "./chat-store";

export interface ChatViewState {
  readonly scrollTop?: number;
  readonly draft: string;
}

export const chatViewKey = "wisp.chat.view";
/** Chats whose view state is kept (the most recently touched). */
const kept = 100;

export class ChatViewMemory {
  private states: Record<string, ChatViewState>;

  constructor(private readonly storage: ChatStorage) {
    this.states = this.read();
  }

  get(chatId: string): ChatViewState {
    this.readOthers();
    const state = this.states[chatId];
    return { draft: typeof state?.draft === "string" ? state.draft : "", ...(typeof state?.scrollTop === "number" ? { scrollTop: state.scrollTop } : {}) };
  }

  set(chatId: string, state: ChatViewState): PromiseLike<void> {
    this.readOthers();
    const { [chatId]: _previous, ...others } = this.states;
    // Newest last; the oldest are forgotten beyond `kept`.
    this.states = Object.fromEntries([...Object.entries(others), [chatId, state]].slice(-kept));
    return this.storage.update(chatViewKey, this.states);
  }

  forget(chatId: string): PromiseLike<void> {
    this.readOthers();
    const { [chatId]: _gone, ...rest } = this.states;
    this.states = rest;
    return this.storage.update(chatViewKey, this.states);
  }

  /** What another window of the workspace stored since (its drafts): written over, they would be lost. */
  private readOthers(): void {
    if (this.storage.changedElsewhere?.(chatViewKey)) this.states = this.read();
  }

  private read(): Record<string, ChatViewState> {
    const stored = this.storage.get(chatViewKey);
    return typeof stored === "object" && stored !== null && !Array.isArray(stored) ? (stored as Record<string, ChatViewState>) : {};
  }
}
