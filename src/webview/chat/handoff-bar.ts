import type { AssistantTurn } from "../../core/chat/conversation";
import type { ViewMessage } from "../../core/chat/protocol";
import { actionButton, el } from "./dom";

/**
 * The handoff buttons under the newest answer of an agent that has them (Plan's Start
 * Implementation): each goes on in another agent with its prompt and this answer attached.
 */
export function handoffBar(turn: AssistantTurn, latest: boolean, streaming: boolean, post: (message: ViewMessage) => void): HTMLElement | undefined {
  const handoffs = turn.customAgent?.handoffs ?? [];
  if (!latest || streaming || turn.status !== "done" || handoffs.length === 0) return undefined;
  return el(
    "div",
    { className: "handoffs", role: "group", "aria-label": `Continue from ${turn.customAgent!.name}` },
    ...handoffs.map((handoff, index) =>
      actionButton(handoff.label, () => post({ type: "handoff", turnId: turn.id, index }), { className: "handoff primary", title: `${handoff.label}: continue in ${handoff.agent === "agent" ? "Agent" : handoff.agent} with this answer` }),
    ),
  );
}

/** What the transcript says of a summary that replaced the conversation before it. */
export function compactionNote(turn: AssistantTurn): HTMLElement | undefined {
  const compaction = turn.compaction;
  if (compaction === undefined) return undefined;
  const n = compaction.replacedTurns;
  const what = `${n} earlier message${n === 1 ? " was" : "s were"} replaced by this summary`;
  const why = compaction.auto ? ", by itself: the conversation neared the model's context (wisp.chat.autoCompact)" : " (/compact)";
  const streaming = turn.status === "streaming" ? "Compacting the conversation: the summary is being written…" : `Conversation compacted: ${what}${why}.`;
  return el("p", { className: "compacted", role: "note" }, streaming);
}
