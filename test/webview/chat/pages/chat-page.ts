// The whole chat page in the test page, on a stand-in for VS Code's webview API: `start` opens it
// (again) with the page state VS Code kept, which survives reloads and restarts; `show` delivers
// a state from the host.
import type { ChatSummary } from "../../../../src/core/chat/conversation";
import type { HostMessage, Notice, ViewState } from "../../../../src/core/chat/protocol";
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

/** Delivers a state (with `notice`, if any) as the host would; what the notice area shows then. */
function show(notice?: Notice): string | undefined {
  const state: ViewState = {
    chats: [summary],
    chat,
    streaming: false,
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
  };
  window.dispatchEvent(new MessageEvent<HostMessage>("message", { data: { type: "state", state } }));
  const area = document.querySelector<HTMLElement>(".notice")!;
  return area.hidden ? undefined : area.querySelector("span")?.textContent ?? "";
}

Object.assign(window, { chatPage: { start, show } });
