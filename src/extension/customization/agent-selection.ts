import type * as vscode from "vscode";
import type { CustomAgent } from "../../core/customization/custom-agent";
import { planAgent, planAgentId } from "../../core/customization/plan-agent";
import type { AgentOption } from "../../core/chat/protocol";
import type { CustomizationFiles } from "./customization-files";

const selectedKey = "wisp.chat.agent";

/**
 * The agents of the composer's switch beside Ask and Agent (Plan, then the custom agents), and
 * which one is chosen, kept per workspace.
 */
export class AgentSelection {
  constructor(
    private readonly files: CustomizationFiles,
    private readonly memento: vscode.Memento,
  ) {}

  /**
   * Those a user may choose: an agent that is not user-invocable is reached through a handoff or a
   * prompt file only (and shows while it is the one chosen, so that the switch says what runs).
   */
  options(): AgentOption[] {
    const selected = this.selected();
    return [planAgent, ...this.files.agents().filter((a) => a.userInvocable || idOf(a) === selected)].map((a) => ({ id: idOf(a), label: a.name, ...(a.description ? { description: a.description } : {}) }));
  }

  /** The chosen agent's id, if it still exists; undefined: Agent itself. */
  selected(): string | undefined {
    const id = this.memento.get<string>(selectedKey);
    return id !== undefined && this.find(id) ? id : undefined;
  }

  async select(id: string | undefined): Promise<void> {
    await this.memento.update(selectedKey, id !== undefined && this.find(id) ? id : undefined);
  }

  /** An agent by id or name (`plan`, a custom agent's name, any case); undefined for Agent and Ask. */
  find(idOrName: string): CustomAgent | undefined {
    if (idOrName.toLowerCase() === planAgentId) return planAgent;
    return this.files.agent(idOrName.replace(/^custom:/, ""));
  }
}

/** Ids keep a custom agent named like a built-in apart from it. */
export function idOf(agent: CustomAgent): string {
  return agent.source === "built-in" ? planAgentId : `custom:${agent.name}`;
}
