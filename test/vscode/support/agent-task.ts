// What the agent suites share: Wisp in agent mode against a scripted model (and back to a fresh
// window's state after), and what they read off the chat while a task runs: the last answer, its
// tool steps, the tool results a request carried, and waits for a step's approval card and for the
// task's end.
import * as vscode from "vscode";
import type { ToolStep } from "../../../src/core/agent/agent-task";
import type { AgentMessage } from "../../../src/core/api/chat";
import type { AssistantTurn } from "../../../src/core/chat/conversation";
import type { WispApi } from "../../../src/extension/extension";
import { startScriptedChatServer, type ScriptedChatServer } from "../../harness/scripted-chat-server";
import { waitFor } from "../../harness/wait-for";
import { activateWisp, resetWisp, setBaseUrl } from "./wisp-extension";

export interface AgentSuite {
  readonly api: WispApi;
  readonly server: ScriptedChatServer;
}

/** Wisp active, in agent mode, against a scripted model that takes `key`; ghost text off. */
export async function openAgentSuite(key: string): Promise<AgentSuite> {
  const api = await activateWisp();
  const server = await startScriptedChatServer({ key });
  await setBaseUrl(server.baseUrl);
  await vscode.commands.executeCommand("wisp.setApiKey", server.key);
  await vscode.workspace.getConfiguration("wisp.completion").update("enabled", false, vscode.ConfigurationTarget.Global);
  await api.chat.fromView({ type: "setMode", mode: "agent" });
  return { api, server };
}

/** Back to ask mode and an empty chat (the suites after start as in a fresh window), `settings` and Wisp's own reset. */
export async function closeAgentSuite(suite: Partial<AgentSuite>, settings: readonly string[] = []): Promise<void> {
  await suite.api?.chat.fromView({ type: "setMode", mode: "ask" });
  await suite.api?.chat.fromView({ type: "newChat" });
  for (const key of ["wisp.completion.enabled", ...settings]) await vscode.workspace.getConfiguration().update(key, undefined, vscode.ConfigurationTarget.Global);
  await resetWisp();
  await suite.server?.close();
}

export interface AgentTaskView {
  answer(): AssistantTurn | undefined;
  steps(): ToolStep[];
  /** Resolves with step `n` once it waits for the user's approval. */
  asking(n: number): Promise<ToolStep | undefined>;
  /** Answers step `n`'s approval card once it shows. */
  approve(n: number, answer: "allow" | "session" | "deny"): Promise<void>;
  /** Resolves once the task has ended and the chat no longer streams. */
  ended(): Promise<AssistantTurn | undefined>;
}

/** `api` is read on each call: suites define their helpers before activating Wisp. */
export function agentTaskView(api: () => WispApi): AgentTaskView {
  const answer = () => api().chat.state().chat.turns.filter((t): t is AssistantTurn => t.role === "assistant").at(-1);
  const steps = () => (answer()?.agent?.steps ?? []).filter((s): s is ToolStep => s.kind === "tool");
  const asking = (n: number) => waitFor(`step ${n} asking`, () => steps()[n], (s) => s?.status === "asking");
  return {
    answer,
    steps,
    asking,
    async approve(n, reply) {
      const step = await asking(n);
      await api().chat.fromView({ type: "agentApproval", stepId: step!.id, answer: reply });
    },
    ended: () => waitFor("the task ended", () => answer(), (t) => t !== undefined && t.status !== "streaming" && !api().chat.state().streaming),
  };
}

/** The contents of the `tool` messages a chat request carried, in order. */
export function toolResults(request: Record<string, unknown>) {
  return (request.messages as AgentMessage[]).filter((m) => m.role === "tool").map((m) => m.content);
}
