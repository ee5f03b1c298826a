/**
 * What the files in play, the chosen agent and the prompt file change in a request: parts added
 * to the system prompt (the agent's instructions, scoped instructions, the conversation's
 * summary), the model, and the tools offered.
 */
import type { Chat, ChatTurn } from "../chat/conversation";
import { isSummary, summaryContext } from "../chat/summary-turn";
import type { CustomAgent } from "./custom-agent";
import { instructionsParts, pathsInPlay } from "./paths-in-play";
import { instructionsFor, instructionsLinkedBy, type ScopedInstructions } from "./scoped-instructions";
import { toolAllowList, type ToolAllowList } from "./tool-allow-list";

/** How a task was asked for: the agent of the switch or of a prompt file, and a prompt file's tools and models. */
export interface AgentRun {
  /** `plan` or a custom agent's name; undefined: Agent itself. */
  readonly agent?: string;
  readonly tools?: readonly string[];
  readonly models?: readonly string[];
}

export interface TaskCustomization {
  readonly promptParts: readonly string[];
  /** A model the agent or prompt file names that the server lists; undefined: the chat's model. */
  readonly model?: string;
  /** Why a model named was not used. */
  readonly modelNotice?: string;
  /** The tools that may be offered; undefined: all of them. */
  readonly allowList?: ToolAllowList;
  /** Scoped instructions for a file an edit touched (by its chat path), the first time in the task (then undefined). */
  instructionsForEdit(path: string): string | undefined;
  /** The instructions files the project's rules link (by their chat paths) not already in, as parts of the system prompt. */
  instructionsLinkedBy(rules: readonly { readonly path: string; readonly text: string }[]): string[];
}

export interface TaskCustomizationInput {
  readonly chat: Chat | undefined;
  readonly run: AgentRun;
  readonly agent: CustomAgent | undefined;
  readonly instructions: readonly ScopedInstructions[];
  /** The server's models (empty while unknown). */
  readonly models: readonly string[];
  /** The workspace folders' names: with several, chat paths start with one. */
  readonly folders?: readonly string[];
}

export function taskCustomization(input: TaskCustomizationInput): TaskCustomization {
  const { chat, run, agent } = input;
  const question = lastQuestionOf(chat?.turns ?? []);
  const inPlay = question ? instructionsFor(input.instructions, pathsInPlay(question), input.folders) : [];
  const given = new Set(inPlay.map((i) => i.source));
  const parts: string[] = [];
  if (agent && agent.instructions !== "") parts.push(`You are working as the "${agent.name}" agent. Its instructions come first where they differ from the ones above:\n${agent.instructions}`);
  parts.push(...instructionsParts(inPlay));
  const summary = chat?.turns.findLast(isSummary);
  if (summary) parts.push(summaryContext(summary));
  const tools = run.tools ?? agent?.tools;
  const model = chooseModel(run.models?.length ? run.models : (agent?.models ?? []), input.models);
  return {
    promptParts: parts,
    ...model,
    ...(tools ? { allowList: toolAllowList(tools) } : {}),
    instructionsForEdit: (path) => {
      const fresh = instructionsFor(input.instructions, [path], input.folders).filter((i) => !given.has(i.source));
      for (const i of fresh) given.add(i.source);
      return fresh.length === 0 ? undefined : instructionsParts(fresh).join("\n\n");
    },
    instructionsLinkedBy: (rules) => {
      const fresh = instructionsLinkedBy(rules, input.instructions, input.folders).filter((i) => !given.has(i.source));
      for (const i of fresh) given.add(i.source);
      return instructionsParts(fresh);
    },
  };
}

/**
 * The first model named that the server lists (Copilot's "GPT-5 (copilot)" read as "GPT-5"), or a
 * notice saying the chat model is used instead.
 */
export function chooseModel(named: readonly string[], listed: readonly string[]): { model?: string; modelNotice?: string } {
  if (named.length === 0) return {};
  for (const name of named) {
    const bare = name.replace(/\s*\([^)]*\)\s*$/, "").trim();
    const found = listed.find((m) => m === name) ?? listed.find((m) => m === bare) ?? listed.find((m) => m.toLowerCase() === bare.toLowerCase());
    if (found) return { model: found };
  }
  return { modelNotice: `The server lists no model named ${named.map((n) => `"${n}"`).join(" or ")}: the chat model answers instead.` };
}

function lastQuestionOf(turns: readonly ChatTurn[]) {
  return turns.findLast((t) => t.role === "user");
}
