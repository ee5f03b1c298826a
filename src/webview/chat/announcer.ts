import type { ChatTurn } from "../../core/chat/conversation";
import { finishNote } from "../../core/chat/finish-note";
import { cutAt } from "../../core/base/surrogates";
import { approvalQuestion } from "./agent-view";
import { el } from "./dom";

/** The most of an answer read out at once; the rest stays in the conversation to read on. */
const maxSpoken = 1500;

/**
 * A polite live region, off screen, for what a screen reader should say about the conversation:
 * an answer once it is complete (the streaming log itself is not live, which would read every
 * delta) and a question of the agent that waits for the user.
 */
export class Announcer {
  readonly element = el("div", { className: "announcer", role: "status", "aria-live": "polite", "aria-atomic": "true" });

  say(text: string): void {
    const spoken = text.length > maxSpoken ? `${cutAt(text, maxSpoken)}… (more in the conversation)` : text;
    // Emptied first, so the same words said again are announced again.
    this.element.textContent = "";
    requestAnimationFrame(() => (this.element.textContent = spoken));
  }
}

/**
 * What to say when a shown turn changes from `before` to `after`: the answer when it completes or
 * is stopped (an error is an alert of its own), and each new question of an approval card.
 */
export function announcementOf(before: ChatTurn, after: ChatTurn, answerText: () => string): string | undefined {
  if (before.role !== "assistant" || after.role !== "assistant") return undefined;
  const askedBefore = new Set(before.agent?.steps.filter((s) => s.kind === "tool" && s.status === "asking").map((s) => s.id));
  const asks = (after.agent?.steps ?? []).filter((s) => s.kind === "tool" && s.status === "asking" && !askedBefore.has(s.id));
  if (asks.length > 0) return asks.map((s) => (s.kind === "tool" ? `Wisp asks: ${approvalQuestion(s)}${s.command ? ` ${s.command}` : ""}` : "")).join(" ");
  if (before.status !== "streaming" || (after.status !== "done" && after.status !== "stopped")) return undefined;
  const text = answerText().trim();
  const who = after.agent ? "The agent finished" : "Wisp answered";
  if (after.status === "stopped") return `Stopped. ${text}`.trim();
  if (text === "") return `${who} with no text.`;
  // Why it ended goes first: after 1,500 characters of answer it would never be heard.
  const note = finishNote(after);
  return note === "" ? `${who}: ${text}` : `${who} (${note}): ${text}`;
}
