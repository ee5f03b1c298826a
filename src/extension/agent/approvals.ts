import type { StepReporter } from "../../core/agent/agent-session";
import type { ToolStep } from "../../core/agent/agent-task";
import type { ApprovalChoice } from "../../core/chat/protocol";

/** The user's answer on an approval card. */
export type ApprovalAnswer = ApprovalChoice;

/**
 * The approval cards of agent mode: a step asks (its card shows the buttons) and waits until the
 * user answers in the chat view, or the task stops. "Allow in this session" remembers the exact
 * action (the same command text, the same file) until the window closes.
 */
export class Approvals {
  private readonly waiting = new Map<string, (answer: ApprovalAnswer | "stopped") => void>();
  private readonly allowed = new Set<string>();

  /**
   * Shows the card on the step and waits. `key` names the exact action for Allow in this
   * session; an action allowed so before is allowed without asking.
   */
  ask(step: StepReporter, key: string, card: Partial<ToolStep>, signal: AbortSignal): Promise<ApprovalAnswer | "stopped"> {
    if (this.allowed.has(key)) return Promise.resolve("allow");
    if (signal.aborted) return Promise.resolve("stopped");
    step.update({ ...card, status: "asking" });
    return new Promise((resolve) => {
      const onAbort = () => settle("stopped");
      const settle = (answer: ApprovalAnswer | "stopped") => {
        this.waiting.delete(step.stepId);
        signal.removeEventListener("abort", onAbort);
        if (answer === "session") this.allowed.add(key);
        resolve(answer);
      };
      this.waiting.set(step.stepId, settle);
      signal.addEventListener("abort", onAbort, { once: true });
    });
  }

  /** The user's answer from the view; false when that step is not asking (answered already, stopped). */
  answer(stepId: string, answer: ApprovalAnswer): boolean {
    const settle = this.waiting.get(stepId);
    settle?.(answer);
    return settle !== undefined;
  }

  /** Steps waiting for an answer (for the extension's tests). */
  asking(): string[] {
    return [...this.waiting.keys()];
  }
}
