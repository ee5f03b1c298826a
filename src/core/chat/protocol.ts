/**
 * The messages between the extension and the chat webview. The webview starts with `ready`; the
 * extension answers with a full `state` and then sends `delta`s as an answer streams. Everything
 * the webview sends is checked with parseViewMessage before use. No message carries the API key.
 */
import type { Chat, ChatError, ChatSummary } from "./conversation";
import type { CodeSnippet } from "./chat-request";
import type { ChatViewState } from "./view-memory";
import { isMentionKind, type MentionKind } from "../context/mentions";
import type { SlashCommandItem } from "../customization/slash-commands";

/** One entry of the @-mention list: a kind to pick, or a file or symbol of that kind. */
export interface MentionItem {
  /** Chosen with addMention; valid until the next list. */
  readonly id: string;
  readonly kind: MentionKind;
  readonly label: string;
  readonly detail?: string;
  /** Picking it narrows the list to this kind (`@file:`) instead of attaching. */
  readonly opensKind?: boolean;
}

export interface ChatSetupView {
  readonly temperature: number;
  readonly maxTokens: number;
  readonly contextTokens: number;
  readonly contextSource: "server" | "setting" | "default";
}

export interface Notice {
  /** Increases with every notice, so the view shows a repeated one again. */
  readonly id: number;
  /** The activation that counted `id`: ids start again at 1 when VS Code restarts. */
  readonly session: string;
  readonly text: string;
}

export interface ViewState {
  readonly chats: readonly ChatSummary[];
  readonly chat: Chat;
  /** An answer of this chat is streaming. */
  readonly streaming: boolean;
  /** Chat models the server lists (image models left out). */
  readonly models: readonly string[];
  /** False while the first listing is on its way. */
  readonly modelsListed: boolean;
  /** The model the next message goes to ("" while none is known). */
  readonly model: string;
  /** Why the model list could not be read. */
  readonly modelsError?: ChatError;
  readonly setup: ChatSetupView;
  /** The base URL is on this machine: errors offer Start Local Server. */
  readonly serverIsLocal: boolean;
  /** Where the user was in this chat, and their unsent text. */
  readonly view: ChatViewState;
  readonly notice?: Notice;
  /** Ask: chat; Agent: a message is a task the agent carries out with tools. */
  readonly mode: ChatMode;
  /** Why agent mode cannot act here (an untrusted workspace, no folder); undefined when it can. */
  readonly agentBlocked?: string;
  /** What typing `/` lists: Wisp's commands, then the prompt files'. */
  readonly commands: readonly SlashCommandItem[];
  /** The agents beside Ask and Agent in the switch: Plan, then the workspace's custom agents. */
  readonly agents: readonly AgentOption[];
  /** The agent chosen in the switch (an id of `agents`) while the mode is agent; undefined: Agent itself. */
  readonly agentId?: string;
  /** The server lists only the embedded models: the first answer and the agent's refusal show the way out. */
  readonly embeddedOnly?: boolean;
  /** Agent mode's checkpoints in this chat: the requests that can be restored, and what Redo would bring back. */
  readonly checkpoints?: CheckpointsView;
}

export interface CheckpointsView {
  /** User turns whose Restore Checkpoint is available. */
  readonly requests: readonly string[];
  /** The last restore, while Redo can still undo it (until the next request). */
  readonly redo?: { readonly requests: number; readonly files: number };
}

export interface AgentOption {
  readonly id: string;
  readonly label: string;
  readonly description?: string;
}

export type ChatMode = "ask" | "agent";
/** `always`: this MCP tool from now on, in this workspace. */
export type ApprovalChoice = "allow" | "session" | "always" | "deny";

export type HostMessage =
  | { readonly type: "state"; readonly state: ViewState }
  /** `text` continues the answer at `offset` (its length so far). */
  | { readonly type: "delta"; readonly chatId: string; readonly turnId: string; readonly offset: number; readonly text: string }
  | { readonly type: "snippets"; readonly snippets: readonly CodeSnippet[]; readonly note: string }
  | { readonly type: "focusPrompt" }
  | { readonly type: "mentionItems"; readonly requestId: number; readonly items: readonly MentionItem[] }
  /** The chat's view state (scroll position and draft) is stored, with this position. */
  | { readonly type: "viewSaved"; readonly chatId: string; readonly scrollTop: number }
  /** Puts text in the prompt box (a handoff that waits for the user to send it). */
  | { readonly type: "setDraft"; readonly text: string };

export type CodeAction = "copy" | "insert" | "apply" | "newFile";
export type ErrorAction = "setApiKey" | "selectModel" | "retry" | "startLocalServer" | "openSettings" | "showLogs" | "downloadModel" | "connectServer";

export type ViewMessage =
  | { readonly type: "ready" }
  | { readonly type: "send"; readonly text: string }
  | { readonly type: "stop" }
  | { readonly type: "regenerate" }
  | { readonly type: "copyAnswer"; readonly turnId: string }
  /** `path`: the workspace file the code block names, which Apply then edits. */
  | { readonly type: "codeAction"; readonly action: CodeAction; readonly code: string; readonly language: string; readonly path?: string }
  | { readonly type: "removeAttachment"; readonly id: string }
  | { readonly type: "newChat" }
  | { readonly type: "switchChat"; readonly id: string }
  | { readonly type: "renameChat"; readonly id: string }
  | { readonly type: "deleteChat"; readonly id: string }
  | { readonly type: "selectModel"; readonly model: string }
  | { readonly type: "refreshModels" }
  | { readonly type: "viewAsCode"; readonly draft: string }
  | { readonly type: "copyText"; readonly text: string }
  | { readonly type: "errorAction"; readonly action: ErrorAction }
  | { readonly type: "viewState"; readonly chatId: string; readonly scrollTop: number; readonly draft: string }
  /** What follows an `@` in the prompt box (kind "" while no kind is typed). */
  | { readonly type: "mentionQuery"; readonly requestId: number; readonly kind: MentionKind | ""; readonly query: string }
  | { readonly type: "addMention"; readonly id: string }
  /** `line`: 1-based, to show (a link such as `src/a.ts#L12` in an answer). */
  | { readonly type: "openFile"; readonly path: string; readonly line?: number }
  /** `agent`: an agent of the switch (`ViewState.agents`) when the mode is agent; none: Agent itself. */
  | { readonly type: "setMode"; readonly mode: ChatMode; readonly agent?: string }
  /** A handoff button under an answer: continue in its agent with its prompt. */
  | { readonly type: "handoff"; readonly turnId: string; readonly index: number }
  /** The user's answer on an agent step's approval card. */
  | { readonly type: "agentApproval"; readonly stepId: string; readonly answer: ApprovalChoice }
  /** Keep or Undo the last task's changes: all of them, or one file's. */
  | { readonly type: "agentReview"; readonly turnId: string; readonly action: "keep" | "undo"; readonly path?: string }
  /** Go on with a task that reached its step limit. */
  | { readonly type: "agentContinue" }
  /** The diff of a file the task changed, from its original. */
  | { readonly type: "agentDiff"; readonly path: string }
  /** Restore Checkpoint on a request (its user turn): the files as before it; it and later turns removed. */
  | { readonly type: "agentRestore"; readonly turnId: string }
  /** Undo the last Restore Checkpoint, files and turns. */
  | { readonly type: "agentRedo" };

/** Longest text accepted from the webview (a message, a code block): 1 MiB of characters. */
export const maxViewText = 1 << 20;

const codeActions: readonly string[] = ["copy", "insert", "apply", "newFile"] satisfies CodeAction[];
const errorActions: readonly string[] = ["setApiKey", "selectModel", "retry", "startLocalServer", "openSettings", "showLogs", "downloadModel", "connectServer"] satisfies ErrorAction[];

type Fields = Record<string, (value: unknown) => boolean>;

const text = (v: unknown) => typeof v === "string" && v.length <= maxViewText;
const id = (v: unknown) => typeof v === "string" && /^[\w-]{1,64}$/.test(v);
const name = (v: unknown) => typeof v === "string" && v.length > 0 && v.length <= 256;
/** Longest code block language accepted from the webview (it sends "" for a longer one). */
export const maxCodeLanguage = 64;

const language = (v: unknown) => typeof v === "string" && v.length <= maxCodeLanguage;
const filePath = (v: unknown) => typeof v === "string" && v.length > 0 && v.length <= 1024;

const stepId = (v: unknown) => typeof v === "string" && v.length > 0 && v.length <= 128;

const shapes: Record<ViewMessage["type"], Fields> = {
  ready: {},
  send: { text },
  stop: {},
  regenerate: {},
  copyAnswer: { turnId: id },
  codeAction: { action: (v) => codeActions.includes(v as string), code: text, language, path: (v) => v === undefined || filePath(v) },
  removeAttachment: { id },
  newChat: {},
  switchChat: { id },
  renameChat: { id },
  deleteChat: { id },
  selectModel: { model: name },
  refreshModels: {},
  viewAsCode: { draft: text },
  copyText: { text },
  errorAction: { action: (v) => errorActions.includes(v as string) },
  viewState: { chatId: id, scrollTop: (v) => typeof v === "number" && Number.isFinite(v) && v >= 0, draft: text },
  mentionQuery: { requestId: (v) => Number.isSafeInteger(v), kind: (v) => v === "" || isMentionKind(v), query: (v) => typeof v === "string" && v.length <= 256 },
  addMention: { id },
  openFile: { path: filePath, line: (v) => v === undefined || (Number.isSafeInteger(v) && (v as number) >= 1) },
  setMode: { mode: (v) => v === "ask" || v === "agent", agent: (v) => v === undefined || name(v) },
  handoff: { turnId: id, index: (v) => Number.isSafeInteger(v) && (v as number) >= 0 && (v as number) < 64 },
  agentApproval: { stepId, answer: (v) => v === "allow" || v === "session" || v === "always" || v === "deny" },
  agentReview: { turnId: id, action: (v) => v === "keep" || v === "undo", path: (v) => v === undefined || filePath(v) },
  agentContinue: {},
  agentDiff: { path: filePath },
  agentRestore: { turnId: id },
  agentRedo: {},
};

/** The message if it is one the webview may send, with exactly its fields; otherwise undefined. */
export function parseViewMessage(value: unknown): ViewMessage | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  const type = record.type;
  if (typeof type !== "string" || !Object.hasOwn(shapes, type)) return undefined;
  const fields = shapes[type as ViewMessage["type"]];
  const message: Record<string, unknown> = { type };
  for (const [key, valid] of Object.entries(fields)) {
    if (!valid(record[key])) return undefined;
    if (record[key] !== undefined) message[key] = record[key];
  }
  return message as ViewMessage;
}

/**
 * Applies a streamed delta to the text the view has. A delta it already has (sent again after a
 * fresh state) changes nothing; a gap means deltas were missed and the view needs a new state.
 */
export function applyDelta(current: string, offset: number, delta: string): { text: string; gap: boolean } {
  if (offset > current.length) return { text: current, gap: true };
  const end = offset + delta.length;
  if (end <= current.length) return { text: current, gap: false };
  return { text: current + delta.slice(current.length - offset), gap: false };
}
