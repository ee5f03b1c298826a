/**
 * The chats of one workspace, kept in a key-value storage (files in the workspace storage folder,
 * or workspaceState in a window without a folder): an index
 * (order, titles, the active chat) and one entry per chat. While an answer streams, writes are
 * batched; finished answers are written at once.
 */
import {
  emptyChat,
  recoverInterrupted,
  summarize,
  type Chat,
  type ChatSummary,
} from "./conversation";

export interface ChatStorage {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
  /** Every stored key (workspaceState has it too): the chats are listed again from their entries when the index is lost. */
  keys?(): readonly string[];
  /**
   * Whether another window of the workspace wrote (or deleted) the key since this one last read or
   * wrote it: what this window holds of it is then read again before it writes over it.
   */
  changedElsewhere?(key: string): boolean;
}

interface ChatIndex {
  readonly version: 1;
  readonly activeId: string;
  readonly chats: readonly ChatSummary[];
}

export const chatIndexKey = "wisp.chat.index";
export const chatKey = (id: string) => `wisp.chat.item.${id}`;

export interface ChatStoreOptions {
  readonly newId: () => string;
  readonly now: () => number;
  /** Longest delay of a batched write (default 500 ms). */
  readonly batchMs?: number;
  /** A write the storage refused (logged; later writes still go ahead). */
  readonly onError?: (error: unknown) => void;
}

export class ChatStore {
  private summaries: ChatSummary[];
  private activeId: string;
  /** Chats listed again from their own entries at open, the index being missing or damaged. */
  private readonly rebuilt: number;
  private readonly chats = new Map<string, Chat>();
  private readonly dirty = new Set<string>();
  /** Chats this window deleted: another window's index still listing them does not bring them back. */
  private readonly removed = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private writing: Promise<void> = Promise.resolve();

  constructor(private readonly storage: ChatStorage, private readonly options: ChatStoreOptions) {
    const index = readIndex(storage.get(chatIndexKey));
    // Without an index, a fresh one would hide every stored chat (their entries stay, never listed).
    // With one, a chat written just before a crash that cut off the index's write is listed too.
    const unlisted = storedSummaries(storage, new Set(index?.chats.map((s) => s.id)));
    this.summaries = index ? [...index.chats, ...unlisted] : unlisted;
    this.rebuilt = index ? 0 : this.summaries.length;
    this.activeId = index?.activeId ?? this.list()[0]?.id ?? "";
    if (unlisted.length > 0) {
      this.markIndexDirty();
      void this.flush();
    }
    if (!this.summaries.some((s) => s.id === this.activeId)) {
      const chat = this.summaries[0] ? this.get(this.summaries[0].id) : undefined;
      if (chat) this.activeId = chat.id;
      else this.create();
    }
  }

  /** How many chats were listed again from their own entries at open (0: the index was read). */
  recovered(): number {
    return this.rebuilt;
  }

  /**
   * The listed chats and every chat the storage holds an entry of: what belongs to any of them
   * (agent checkpoints) is kept, even for a chat an index written before a crash does not list.
   */
  storedIds(): Set<string> {
    const ids = new Set(this.summaries.map((s) => s.id));
    for (const key of this.storage.keys?.() ?? []) if (key.startsWith(chatKey(""))) ids.add(key.slice(chatKey("").length));
    return ids;
  }

  /** Newest first; of two changed in the same millisecond, the one made later (summaries are in the order made). */
  list(): ChatSummary[] {
    this.readOthersIndex();
    return this.summaries
      .map((summary, made) => ({ summary, made }))
      .sort((a, b) => b.summary.updatedAt - a.summary.updatedAt || b.made - a.made)
      .map(({ summary }) => summary);
  }

  active(): Chat {
    return this.get(this.activeId) ?? this.create();
  }

  get(id: string): Chat | undefined {
    const cached = this.chats.get(id);
    // Another window went on in this chat: its version is the one to go on from (a write not yet
    // made here is this window's newer one).
    if (cached && (this.dirty.has(id) || !this.storage.changedElsewhere?.(chatKey(id)))) return cached;
    this.chats.delete(id);
    if (!this.summaries.some((s) => s.id === id)) this.readOthersIndex();
    if (!this.summaries.some((s) => s.id === id)) return undefined;
    const stored = readChat(this.storage.get(chatKey(id)), id);
    if (stored === undefined) {
      // An index entry without its chat (storage edited or cut short): forget it.
      this.summaries = this.summaries.filter((s) => s.id !== id);
      this.markIndexDirty();
      return undefined;
    }
    const chat = recoverInterrupted(stored);
    this.chats.set(id, chat);
    if (chat !== stored) this.put(chat);
    return chat;
  }

  /** Stores a new version of a chat: at once, or batched ("soon") while an answer streams. */
  put(chat: Chat, when: "now" | "soon" = "now"): void {
    this.chats.set(chat.id, chat);
    const summary = summarize(chat);
    const index = this.summaries.findIndex((s) => s.id === chat.id);
    if (index < 0) this.summaries.push(summary);
    else this.summaries[index] = summary;
    this.dirty.add(chat.id);
    this.markIndexDirty();
    if (when === "now") void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.options.batchMs ?? 500);
  }

  /** A new empty chat, made active. */
  create(): Chat {
    const chat = emptyChat(this.options.newId(), this.options.now());
    this.activeId = chat.id;
    this.put(chat);
    return chat;
  }

  activate(id: string): Chat | undefined {
    const chat = this.get(id);
    if (chat === undefined) return undefined;
    this.activeId = id;
    this.markIndexDirty();
    void this.flush();
    return chat;
  }

  /** Deletes a chat; when it was the active one, the newest other chat (or a new one) becomes active. */
  remove(id: string): void {
    this.removed.add(id);
    this.summaries = this.summaries.filter((s) => s.id !== id);
    this.chats.delete(id);
    this.dirty.delete(id);
    void this.storage.update(chatKey(id), undefined);
    if (this.activeId === id) {
      const next = this.list()[0];
      if (next && this.get(next.id)) this.activeId = next.id;
      else {
        this.create();
        return;
      }
    }
    this.markIndexDirty();
    void this.flush();
  }

  /** Writes everything pending; resolves when the storage has it. */
  flush(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    // The index another window wrote since: its chats are kept in the one written here.
    if (this.dirty.has(indexMarker)) this.readOthersIndex();
    const ids = [...this.dirty];
    this.dirty.clear();
    const writes: PromiseLike<void>[] = ids.flatMap((id) => {
      if (id === indexMarker) return [this.storage.update(chatIndexKey, { version: 1, activeId: this.activeId, chats: this.summaries } satisfies ChatIndex)];
      const chat = this.chats.get(id);
      return chat ? [this.storage.update(chatKey(id), chat)] : [];
    });
    this.writing = Promise.all([this.writing, ...writes]).then(
      () => undefined,
      (error: unknown) => this.options.onError?.(error),
    );
    return this.writing;
  }

  /**
   * The summaries of the index another window of the workspace wrote since this one last read or
   * wrote it: chats made there are listed here, and chats changed there are summarized as they are now.
   */
  private readOthersIndex(): void {
    if (!this.storage.changedElsewhere?.(chatIndexKey)) return;
    const index = readIndex(this.storage.get(chatIndexKey));
    for (const summary of index?.chats ?? []) {
      if (this.removed.has(summary.id)) continue;
      const at = this.summaries.findIndex((s) => s.id === summary.id);
      if (at < 0) this.summaries.push(summary);
      else if (summary.updatedAt > this.summaries[at]!.updatedAt && !this.dirty.has(summary.id)) this.summaries[at] = summary;
    }
  }

  private markIndexDirty(): void {
    this.dirty.add(indexMarker);
  }
}

/** Not a chat id (ids are word characters): marks the index as needing a write. */
const indexMarker = "#index";

/** The summaries of every readable chat entry not `listed`, oldest first (the index's order: the order made). */
function storedSummaries(storage: ChatStorage, listed: ReadonlySet<string>): ChatSummary[] {
  const prefix = chatKey("");
  return (storage.keys?.() ?? [])
    .filter((key) => key.startsWith(prefix) && !listed.has(key.slice(prefix.length)))
    .flatMap((key) => {
      const chat = readChat(storage.get(key), key.slice(prefix.length));
      return chat ? [summarize(chat)] : [];
    })
    .sort((a, b) => a.updatedAt - b.updatedAt);
}

function readIndex(value: unknown): ChatIndex | undefined {
  if (!isRecord(value) || value.version !== 1 || typeof value.activeId !== "string" || !Array.isArray(value.chats)) return undefined;
  const chats = value.chats.filter(
    (s): s is ChatSummary => isRecord(s) && typeof s.id === "string" && typeof s.title === "string" && typeof s.updatedAt === "number" && typeof s.turns === "number",
  );
  return { version: 1, activeId: value.activeId, chats };
}

/** The stored chat when it has the expected shape (storage may hold an older or damaged value). */
function readChat(value: unknown, id: string): Chat | undefined {
  if (!isRecord(value) || value.id !== id || typeof value.title !== "string" || !Array.isArray(value.turns)) return undefined;
  const turnsOk = value.turns.every(
    (t) => isRecord(t) && typeof t.id === "string" && typeof t.text === "string" && (t.role === "user" ? Array.isArray(t.attachments) : t.role === "assistant" && typeof t.status === "string"),
  );
  if (!turnsOk) return undefined;
  return { ...(value as unknown as Chat), pending: Array.isArray(value.pending) ? (value.pending as Chat["pending"]) : [] };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
