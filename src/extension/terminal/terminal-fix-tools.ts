import * as vscode from "vscode";
import type { ChatTool, ToolCall } from "../../core/api/chat";
import type { ToolOutcome, ValidCall } from "../../core/agent/agent-loop";
import type { AgentTools, StepReporter } from "../../core/agent/agent-session";
import { ToolArgValidator } from "../../core/agent/tool-args";
import { agentTools } from "../../core/agent/tool-schemas";
import { mask, maskSecrets } from "../../core/terminal/mask-secrets";
import type { Approvals } from "../agent/approvals";
import type { CommandToolDeps } from "../agent/command-tool";

const runTool = agentTools.filter((t) => t.function.name === "run_in_terminal");

/**
 * The one tool of a terminal failure's explanation: run_in_terminal for the corrected command,
 * in the failed command's folder, through the agent's approval card every time (nothing is
 * approved in advance), the deny rules still refusing at once.
 */
export class TerminalFixTools implements AgentTools {
  private readonly validator = new ToolArgValidator(runTool);

  constructor(private readonly command: Omit<CommandToolDeps, "autoApprove"> & { readonly approvals: Approvals }) {}

  async definitions(): Promise<readonly ChatTool[]> {
    return runTool;
  }

  validate(call: ToolCall) {
    return this.validator.validate(call.function.name, call.function.arguments);
  }

  async run(call: ValidCall, signal: AbortSignal, step: StepReporter): Promise<ToolOutcome> {
    step.update({ tool: call.name, title: call.name, status: "running" });
    if (!vscode.workspace.isTrusted) {
      const note = "Not run: this workspace is not trusted (Restricted Mode), so Wisp runs no command in it.";
      step.update({ status: "denied", command: String(call.args.command ?? ""), note });
      return { content: note, isError: true };
    }
    // The model saw [masked] for a secret in the command and its output, and may write it back: run, the
    // placeholder would go as the value (a remote URL's password, a secret set to the word).
    const command = String(call.args.command ?? "");
    if (command.includes(mask)) {
      const note = `Not run: the command holds ${mask}, which stands for a value Wisp kept from the model (a password, a token). Run it yourself with the real value.`;
      step.update({ status: "denied", command, note });
      return { content: note, isError: true };
    }
    // Loaded on first use, as agent mode does: the shell parser takes a while to load.
    const { runInTerminal } = await import("../agent/command-tool");
    const outcome = await runInTerminal({ ...this.command, autoApprove: [], maskOutput: true }, call.args as { command: string; explanation?: string }, step, signal);
    // The output came masked (before its middle was cut); the rest (a refusal naming the command) is masked here,
    // for the note too: a step is saved with the chat and compaction sends it to the model.
    const content = maskSecrets(outcome.content);
    const status = step.current()?.status;
    if (outcome.isError && status !== "denied" && status !== "stopped") step.update({ status: "failed", note: content });
    return { ...outcome, content };
  }
}
