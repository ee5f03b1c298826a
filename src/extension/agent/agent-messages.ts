import * as vscode from "vscode";
import type { ViewMessage } from "../../core/chat/protocol";
import type { AgentController } from "./agent-controller";
import { originalUri } from "./original-content";

type AgentMessage = Extract<ViewMessage, { type: "setMode" | "agentApproval" | "agentReview" | "agentContinue" | "agentDiff" | "agentRestore" | "agentRedo" }>;

const agentTypes: ReadonlySet<string> = new Set(["setMode", "agentApproval", "agentReview", "agentContinue", "agentDiff", "agentRestore", "agentRedo"]);

export function isAgentMessage(message: ViewMessage): message is AgentMessage {
  return agentTypes.has(message.type);
}

/** Carries out what the chat view asked of agent mode; a notice for the user, if any. */
export async function agentMessage(agent: AgentController, message: AgentMessage): Promise<string | undefined> {
  switch (message.type) {
    case "setMode":
      await agent.setMode(message.mode);
      return undefined;
    case "agentApproval":
      return agent.answer(message.stepId, message.answer) ? undefined : "That step is no longer waiting for an answer.";
    case "agentReview":
      return agent.review(message.turnId, message.action, message.path);
    case "agentContinue":
      return agent.continue();
    case "agentRestore":
      return agent.checkpoints.restore(message.turnId);
    case "agentRedo":
      return agent.checkpoints.redo();
    case "agentDiff": {
      if ((await agent.original(message.path)) === undefined) return `There is no change of the last task to ${message.path} to show.`;
      const current = await agent.changedFile(message.path);
      await vscode.commands.executeCommand("vscode.diff", originalUri(message.path, current), current, `${message.path} (before the task ↔ now)`);
      return undefined;
    }
  }
}
