import * as vscode from "vscode";
import type { ToolOutcome } from "../../core/agent/agent-loop";
import type { StepReporter } from "../../core/agent/agent-session";
import { decideCommand, defaultDenyRules, type CommandDecision } from "../../core/agent/command-policy";
import { sensitivePathsNamed, withoutSensitiveDiffs } from "../../core/agent/sensitive-command";
import type { Approvals } from "./approvals";
import { howItEnded, runCommand } from "./command-runner";

export interface CommandToolDeps {
  readonly cwd: string;
  readonly approvals: Approvals;
  /** wisp.agent.autoApprove. */
  readonly autoApprove: readonly string[];
  /** wisp.agent.denyCommands: added to the built-in deny rules. */
  readonly denyCommands: readonly string[];
  readonly timeoutMs: number;
  readonly maxOutputChars: number;
  /** The sensitive-file rules, by workspace-relative path (see sensitive-command.ts). */
  readonly isSensitive?: (relative: string) => boolean;
  /** Whether the output is masked (before it is cut) for the model and the step alike: the step is saved with the chat and compaction sends it. */
  readonly maskOutput?: boolean;
}

/**
 * run_in_terminal: the deny rules refuse at once, the auto-approve list runs at once, anything
 * else shows a card (Allow, Allow in this session, Deny). Open documents are saved first, so the
 * command sees what the editor shows.
 */
export async function runInTerminal(deps: CommandToolDeps, args: { command: string; explanation?: string }, step: StepReporter, signal: AbortSignal): Promise<ToolOutcome> {
  const command = args.command.trim();
  step.update({ title: `ran ${command}`, command, ...(args.explanation ? { explanation: args.explanation } : {}) });
  if (command === "") return { content: "The command is empty.", isError: true };
  const isSensitive = deps.isSensitive ?? (() => false);
  const named = sensitivePathsNamed(command, isSensitive);
  const decision = withSensitiveFiles(decideCommand(command, { autoApprove: deps.autoApprove, deny: [...defaultDenyRules, ...deps.denyCommands] }), named);
  if (decision.kind === "deny") {
    step.update({ status: "denied", note: `Refused: ${decision.reason}` });
    return { content: `Refused without asking the user: ${decision.reason} (in "${decision.subcommand}"). Do not try to get around this rule.`, isError: true };
  }
  if (decision.kind === "ask") {
    const answer = await deps.approvals.ask(step, `command:${command}`, decision.reason ? { note: decision.reason } : {}, signal);
    if (answer === "deny" || answer === "stopped") {
      step.update({ status: answer === "stopped" ? "stopped" : "denied" });
      return { content: answer === "stopped" ? "Not run: the user stopped the task." : "The user denied this command; it was not run.", isError: true };
    }
  }
  // What a diff shows of a sensitive file is left out, unless the card named that file and the user allowed it.
  const hidden = (path: string) => isSensitive(path) && !(decision.kind === "ask" && named.includes(path));
  step.update({ status: "running", output: "" });
  await vscode.workspace.saveAll(false);
  const result = await runCommand({
    command,
    cwd: deps.cwd,
    timeoutMs: deps.timeoutMs,
    maxOutputChars: deps.maxOutputChars,
    maskSecrets: deps.maskOutput === true,
    signal,
    onOutput: (output) => step.update({ output: withoutSensitiveDiffs(output, hidden) }),
  });
  const output = withoutSensitiveDiffs(result.output, hidden);
  const how = howItEnded(result, deps.timeoutMs);
  step.update({ status: result.stopped ? "stopped" : result.exitCode === 0 ? "done" : "failed", exitCode: result.exitCode, output });
  return { content: `${how}\n${output === "" ? "(no output)" : output}` };
}

/** A command that names a sensitive file asks, saying so, even when a rule approves it: `git diff .env` shows its secrets. */
function withSensitiveFiles(decision: CommandDecision, named: readonly string[]): CommandDecision {
  if (decision.kind === "deny" || named.length === 0) return decision;
  const why = `It names ${named.join(", ")}, which match${named.length === 1 ? "es" : ""} wisp.sensitiveFiles or .wispignore and may hold secrets.`;
  return { kind: "ask", reason: decision.kind === "ask" && decision.reason ? `${decision.reason} ${why}` : why };
}
