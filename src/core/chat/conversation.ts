/**
 * The chat model: chats made of turns, as stored per workspace and shown in the panel. Plain data
 * (JSON round-trips), so the same shapes go to storage and, through the protocol, to the webview.
 */
import type { Usage } from "../api/usage";
import { recoverTask, type AgentTask } from "../agent/agent-task";
import type { Handoff } from "../customization/file-fields";
import { cutAt } from "../base/surrogates";

/**
 * Where attached code came from: the editor's selection (or its visible part when nothing was
 * selected), an @-mention (file, symbol, problems, open editors, git changes, the terminal), or the workspace
 * index (`found`: added by Wisp for a question that attached nothing), or an earlier answer (`answer`:
 * what a handoff passes on, such as the Plan agent's plan).
 */
export type AttachmentSource = "selection" | "visible" | "file" | "symbol" | "problems" | "open" | "git" | "terminal" | "found" | "answer";

/** Code (or other context) attached to a user message. */
export interface CodeAttachment {
  readonly id: string;
  /** Workspace-relative path (or the file name of an untitled/outside file). */
  readonly path: string;
  /** The editor's language id. */
  readonly language: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly text: string;
  readonly source: AttachmentSource;
  /** How to name it when not by path and lines (problems, git changes). */
  readonly label?: string;
}

export interface UserTurn {
  readonly id: string;
  readonly role: "user";
  readonly text: string;
  readonly attachments: readonly CodeAttachment[];
  readonly createdAt: number;
}

/**
 * `streaming`: the answer is arriving; `done`: the server finished it; `stopped`: the user stopped
 * it (the text so far is kept); `interrupted`: the window closed or reloaded while it streamed;
 * `error`: the request failed (see `error`).
 */
export type AnswerStatus = "streaming" | "done" | "stopped" | "interrupted" | "error";

export interface ChatError {
  /** A WispError kind (`no-key`, `unknown-model`, ...) or `error`. */
  readonly kind: string;
  readonly message: string;
}

export interface AssistantTurn {
  readonly id: string;
  readonly role: "assistant";
  readonly text: string;
  readonly model: string;
  readonly status: AnswerStatus;
  readonly createdAt: number;
  readonly finishedAt?: number;
  readonly usage?: Usage;
  readonly finishReason?: string;
  /** The max_tokens asked: an answer cut (`length`) with fewer tokens was cut by the model's context. */
  readonly maxTokens?: number;
  readonly error?: ChatError;
  /** Earlier messages left out of the request to fit the model's context. */
  readonly droppedMessages?: number;
  /** Attached code shortened or left out to fit the model's context, as the user reads it. */
  readonly contextCuts?: readonly string[];
  /** Agent mode: the task's steps and changed files; `text` is the model's last answer. */
  readonly agent?: AgentTask;
  /** A summary that replaced the turns before it (`/compact`): `text` is the summary. */
  readonly compaction?: Compaction;
  /** The custom agent (or Plan) that answered, and its handoff buttons. */
  readonly customAgent?: AnsweredBy;
}

export interface Compaction {
  /** How many turns the summary replaced. */
  readonly replacedTurns: number;
  /** Done by itself because the conversation neared the model's context. */
  readonly auto: boolean;
  /** Files changed in the replaced turns, and the todos they left open (kept whatever the summary says). */
  readonly files: readonly string[];
  readonly todos: readonly string[];
}

export interface AnsweredBy {
  readonly name: string;
  readonly handoffs: readonly Handoff[];
}

export type ChatTurn = UserTurn | AssistantTurn;

export interface Chat {
  readonly id: string;
  readonly title: string;
  /** True once the user renamed it: the title no longer follows the first message. */
  readonly titleSet?: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
  readonly turns: readonly ChatTurn[];
  /** Attachments waiting for the next message (shown as chips above the prompt box). */
  readonly pending: readonly CodeAttachment[];
}

export interface ChatSummary {
  readonly id: string;
  readonly title: string;
  readonly updatedAt: number;
  readonly turns: number;
}

export const untitledChat = "New chat";
const titleLength = 48;

export function emptyChat(id: string, now: number): Chat {
  return { id, title: untitledChat, createdAt: now, updatedAt: now, turns: [], pending: [] };
}

export function summarize(chat: Chat): ChatSummary {
  return { id: chat.id, title: chat.title, updatedAt: chat.updatedAt, turns: chat.turns.length };
}

/** A title from the first words of a message (or its attachment when the message is empty). */
export function titleFor(turn: UserTurn): string {
  const first = turn.attachments[0];
  const text = turn.text.replace(/\s+/g, " ").trim() || (first ? `${first.path}:${first.startLine}-${first.endLine}` : "");
  if (text === "") return untitledChat;
  return text.length <= titleLength ? text : `${cutAt(text, titleLength - 1).trimEnd()}…`;
}

/** The chat with the user's message added (and pending attachments consumed into it). */
export function withUserTurn(chat: Chat, turn: UserTurn): Chat {
  const first = !chat.turns.some((t) => t.role === "user");
  return {
    ...chat,
    title: first && !chat.titleSet ? titleFor(turn) : chat.title,
    updatedAt: turn.createdAt,
    turns: [...chat.turns, turn],
    pending: [],
  };
}

/** Replaces the turn with the same id (or appends it). */
export function withTurn(chat: Chat, turn: ChatTurn, now: number): Chat {
  const index = chat.turns.findIndex((t) => t.id === turn.id);
  const turns = index < 0 ? [...chat.turns, turn] : chat.turns.map((t, i) => (i === index ? turn : t));
  return { ...chat, turns, updatedAt: now };
}

/** The last assistant turn, when it is the last turn of the chat. */
export function lastAnswer(chat: Chat): AssistantTurn | undefined {
  const last = chat.turns.at(-1);
  return last?.role === "assistant" ? last : undefined;
}

/** The last user turn (what Regenerate and Retry answer again). */
export function lastQuestion(chat: Chat): UserTurn | undefined {
  for (let i = chat.turns.length - 1; i >= 0; i--) {
    const turn = chat.turns[i]!;
    if (turn.role === "user") return turn;
  }
  return undefined;
}

/** The chat without its trailing answer, ready to answer its last question again. */
export function withoutLastAnswer(chat: Chat, now: number): Chat {
  return lastAnswer(chat) ? { ...chat, turns: chat.turns.slice(0, -1), updatedAt: now } : chat;
}

/**
 * Answers still marked streaming when a chat is loaded were cut off by a reload or a closed
 * window: say so rather than show them as still arriving.
 */
export function recoverInterrupted(chat: Chat): Chat {
  if (!chat.turns.some((t) => t.role === "assistant" && t.status === "streaming")) return chat;
  return {
    ...chat,
    turns: chat.turns.map((t) =>
      t.role === "assistant" && t.status === "streaming" ? { ...t, status: "interrupted", ...(t.agent ? { agent: recoverTask(t.agent) } : {}) } : t,
    ),
  };
}
