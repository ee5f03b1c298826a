import { homedir } from "node:os";
import { resolve } from "node:path";
import * as vscode from "vscode";
import { expandHome } from "../../core/base/home-path";
import type { CodeAttachment } from "../../core/chat/conversation";
import { maskSecrets } from "../../core/terminal/mask-secrets";
import { explainFailureQuestion, terminalAttachmentText, terminalFixPrompt, terminalLabel } from "../../core/terminal/terminal-command";
import type { ChatHooks } from "../chat/register-chat";
import type { SensitiveConsent } from "../context/sensitive-consent";
import { folderFor } from "../context/workspace-path";
import type { Logger } from "../logger";
import { registerWispCommand } from "../run-command";
import type { Settings } from "../settings";
import { commandShell } from "../agent/command-runner";
import { TerminalFixTools } from "./terminal-fix-tools";
import type { FinishedCommand, TerminalHistory } from "./terminal-history";
import { cutAt } from "../../core/base/surrogates";

/** Most characters of output sent, whatever wisp.terminal.outputLines says. */
const maxOutputChars = 8_000;
/** The explanation, the corrected command, and a word on how it went. */
const fixSteps = 3;

/** How Explain Terminal Failure ended (the command returns it, for the extension's tests). */
export type ExplainOutcome = { readonly kind: "sent"; readonly commandLine: string } | { readonly kind: "nothing"; readonly reason: string };

export const noShellIntegration =
  "needs VS Code's shell integration, which is not active in this terminal. It works in bash, zsh, fish and PowerShell with terminal.integrated.shellIntegration.enabled on (the default): turn it on, or use one of those shells, and open a new terminal.";

export interface TerminalDeps {
  readonly settings: Settings;
  readonly log: Logger;
  readonly history: TerminalHistory;
  readonly chat: () => ChatHooks;
  /** Asks before the output of a command naming a sensitive file goes. */
  readonly consent: SensitiveConsent;
}

/**
 * The attachment for a finished command: the command line, exit code, folder and output tail,
 * masked. The sensitive-file rules apply as elsewhere: a command line that names such a file asks
 * first (cat .env, source .env && ./deploy.sh: the output may show what it holds, which masking
 * catches only in part; throws on Don't send), and what a diff in the output shows of one is left
 * out (git diff, as @git does).
 */
async function commandAttachment(command: FinishedCommand, outputLines: number, consent: SensitiveConsent, newId: () => string): Promise<CodeAttachment> {
  // Loaded on first use, as agent mode does: the shell parser takes a while to load.
  const { pathWords, withoutSensitiveDiffs } = await import("../../core/agent/sensitive-command");
  const folder = command.cwd ?? terminalFolder(command.terminal) ?? vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
  for (const word of new Set(pathWords(command.commandLine))) {
    if (word !== "") await consent.require(vscode.Uri.file(resolve(folder, expandHome(word, homedir()))));
  }
  const isSensitive = sensitiveIn(folder, consent);
  const text = terminalAttachmentText(command, outputLines, maxOutputChars, (output) => withoutSensitiveDiffs(output, isSensitive));
  return { id: newId(), path: command.terminalName, language: "console", startLine: 1, endLine: text.split("\n").length, text, source: "terminal", label: terminalLabel(command) };
}

/**
 * @terminal: the active terminal's last command (else the latest of any terminal); while one runs
 * there (a dev server, a watch), that one with its output so far, not the command before it.
 */
export async function terminalMention(history: TerminalHistory, settings: Settings, consent: SensitiveConsent, newId: () => string): Promise<CodeAttachment> {
  const terminal = vscode.window.activeTerminal;
  const command = (terminal && (history.runningCommand(terminal) ?? (await history.latest(terminal)))) ?? (await history.latest());
  if (command === undefined) {
    if (terminal && terminal.shellIntegration === undefined) throw new Error(`@terminal ${noShellIntegration}`);
    throw new Error("@terminal: no command has finished in a terminal of this window since Wisp started.");
  }
  return commandAttachment(command, settings.value.terminal.outputLines, consent, newId);
}

/** Explain Terminal Failure: from the terminal's context menu, a key in the terminal, or the palette. */
export function registerTerminal(deps: TerminalDeps): vscode.Disposable {
  const { history, settings, log } = deps;
  let ids = 0;
  const newId = () => `terminal-${Date.now().toString(36)}-${++ids}`;

  async function explain(arg: unknown): Promise<ExplainOutcome> {
    const terminal = arg instanceof Object && "sendText" in arg ? (arg as vscode.Terminal) : vscode.window.activeTerminal;
    if (terminal === undefined) return nothing("Explain Terminal Failure: no terminal is open. Run the command in the integrated terminal first.");
    // The last finished command would be an older one than the user sees failing.
    const running = history.running(terminal);
    if (running !== undefined) return nothing(`Explain Terminal Failure: ${running ? `"${maskSecrets(running)}"` : "a command"} is still running in this terminal. Explain it once it has ended (Ctrl+C stops it).`);
    const command = await history.latest(terminal);
    if (command === undefined) {
      if (terminal.shellIntegration === undefined) return nothing(`Explain Terminal Failure ${noShellIntegration}`, true);
      return nothing("Explain Terminal Failure: no command has finished in this terminal since Wisp started.");
    }
    if (command.exitCode === 0) return nothing(`The last command in this terminal succeeded (${command.commandLine}): nothing to explain.`);
    let attachment: CodeAttachment;
    try {
      attachment = await commandAttachment(command, settings.value.terminal.outputLines, deps.consent, newId);
    } catch (error) {
      return nothing(`Explain Terminal Failure sent nothing: ${(error as Error).message}`);
    }
    const agent = settings.value.agent;
    const cwd = command.cwd ?? terminalFolder(terminal) ?? folderFor(vscode.window.activeTextEditor?.document.uri)?.uri.fsPath ?? process.cwd();
    const chat = deps.chat();
    const profile = {
      systemPrompt: terminalFixPrompt(command.terminalName, commandShell(), process.platform, settings.value.chat.systemPrompt),
      maxSteps: fixSteps,
      // The sensitive-file rules as agent mode applies them: a command naming such a file says so on its card, and what a diff shows of one is left out.
      tools: () => new TerminalFixTools({ cwd, approvals: chat.approvals, denyCommands: agent.denyCommands, timeoutMs: agent.commandTimeoutSeconds * 1000, maxOutputChars: agent.maxOutputChars, isSensitive: sensitiveIn(cwd, deps.consent) }),
    };
    log.info(`terminal: explaining "${maskSecrets(cutAt(command.commandLine, 80))}" (exit ${command.exitCode ?? "unknown"})`);
    await chat.startTask(profile, explainFailureQuestion, [attachment]);
    return { kind: "sent", commandLine: command.commandLine };
  }

  function nothing(reason: string, offerSetting = false): ExplainOutcome {
    const open = "Open Setting";
    void vscode.window.showInformationMessage(`Wisp: ${reason}`, ...(offerSetting ? [open] : [])).then((picked) => {
      if (picked === open) void vscode.commands.executeCommand("workbench.action.openSettings", "terminal.integrated.shellIntegration.enabled");
    });
    return { kind: "nothing", reason };
  }

  return vscode.Disposable.from(registerWispCommand("wisp.explainTerminalFailure", explain, log));
}

/** The sensitive-file rules for paths relative to `folder`, as a command run there names them. */
function sensitiveIn(folder: string, consent: SensitiveConsent): (relative: string) => boolean {
  return (relative) => consent.rules.isSensitive(vscode.Uri.file(resolve(folder, relative)));
}

/**
 * Where a terminal is when its shell did not report the command's folder: where shell integration
 * last saw it, else the folder it was opened in (a multi-root workspace's New Terminal asks which).
 */
function terminalFolder(terminal: vscode.Terminal): string | undefined {
  if (terminal.shellIntegration?.cwd) return terminal.shellIntegration.cwd.fsPath;
  const cwd = "cwd" in terminal.creationOptions ? terminal.creationOptions.cwd : undefined;
  return typeof cwd === "string" ? cwd : cwd?.fsPath;
}
