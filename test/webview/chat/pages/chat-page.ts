// The whole chat page in the test page, on a stand-in for VS Code's webview API: `start` opens it
// (again) with the page state VS Code kept, which survives reloads and restarts; `show` delivers
// a state from the host; `deliver` any host message (a state built from `turns`), `posted` what
// the page sent to the host.
import type { ChatSummary, ChatTurn } from "../../../../src/core/chat/conversation";
import type { CheckpointsView, HostMessage, Notice, ViewState } from "../../../../src/core/chat/protocol";
import { ChatApp } from "../../../../src/webview/chat/chat-app";
import { Host } from "../../../../src/webview/chat/vscode-api";

const posted: unknown[] = [];
let kept: unknown;

function start(): void {
  Object.assign(window, { acquireVsCodeApi: () => ({ postMessage: (m: unknown) => posted.push(m), getState: () => kept, setState: (s: unknown) => (kept = s) }) });
  document.body.replaceChildren();
  new ChatApp(new Host(), document.body);
}

const chat = { id: "c1", title: "New chat", createdAt: 0, updatedAt: 0, turns: [], pending: [] };
const summary: ChatSummary = { id: "c1", title: "New chat", updatedAt: 0, turns: 0 };

function state(turns: readonly ChatTurn[], streaming: boolean, notice?: Notice, checkpoints?: CheckpointsView): ViewState {
  return {
    chats: [summary],
    chat: { ...chat, turns },
    streaming,
    models: ["m"],
    modelsListed: true,
    model: "m",
    setup: { temperature: 0.2, maxTokens: 1000, contextTokens: 8000, contextSource: "default" },
    serverIsLocal: false,
    view: { draft: "" },
    mode: "ask",
    commands: [],
    agents: [],
    ...(notice ? { notice } : {}),
    ...(checkpoints ? { checkpoints } : {}),
  };
}

/** Delivers a state (with `notice`, if any) as the host would; what the notice area shows then. */
function show(notice?: Notice): string | undefined {
  window.dispatchEvent(new MessageEvent<HostMessage>("message", { data: { type: "state", state: state([], false, notice) } }));
  const area = document.querySelector<HTMLElement>(".notice")!;
  return area.hidden ? undefined : area.querySelector("span")?.textContent ?? "";
}

/** Delivers the state of a chat with these turns, or another host message. */
function deliver(message: { turns: readonly ChatTurn[]; streaming: boolean; checkpoints?: CheckpointsView } | HostMessage): void {
  const data: HostMessage = "turns" in message ? { type: "state", state: state(message.turns, message.streaming, undefined, message.checkpoints) } : message;
  window.dispatchEvent(new MessageEvent<HostMessage>("message", { data }));
}

Object.assign(window, { chatPage: { start, show, deliver, posted: () => posted } });
