// One agent answer (TurnView) in the test page: `show` draws it or updates it with new steps, as
// the host's states do while a task runs; `toggle` clicks a step's "Output"; `outputs` is which
// step outputs are open.
import type { ToolStep } from "../../../../src/core/agent/agent-task";
import type { AssistantTurn } from "../../../../src/core/chat/conversation";
import { TurnView, type TurnContext } from "../../../../src/webview/chat/turn-view";

let view: TurnView | undefined;
const context: TurnContext = { latest: true, streaming: true, serverIsLocal: false, wayOut: false };

function show(steps: ToolStep[]): void {
  const turn: AssistantTurn = { id: "a1", role: "assistant", text: "", model: "m", status: "streaming", createdAt: 0, agent: { steps, files: [], messages: [] } };
  if (view) view.update(turn, context);
  else document.body.replaceChildren((view = new TurnView(turn, context, () => {})).element);
}

const output = (stepId: string) => document.querySelector<HTMLDetailsElement>(`[data-step="${stepId}"] details.agent-output`)!;

function toggle(stepId: string): void {
  output(stepId).querySelector("summary")!.click();
}

function outputs(): Record<string, boolean> {
  return Object.fromEntries([...document.querySelectorAll<HTMLElement>("[data-step]")].map((row) => [row.dataset.step, row.querySelector("details")?.open ?? false]));
}

Object.assign(window, { turnPage: { show, toggle, outputs } });
