/**
 * Prompt files (`.github/prompts/NAME.prompt.md`): reusable prompts run as `/NAME` in the chat.
 * The front matter says how (which agent, model, tools); the body is the prompt, with variables.
 */
import type { ChatMode } from "../chat/protocol";
import { isTypeableName } from "./command-name";
import { readFields, type FileFormat } from "./file-fields";
import { parseFrontMatter, type FileProblem } from "./front-matter";
import { resolveToolReferences, withReferencedTools } from "./tool-references";

export interface PromptFile {
  /** What follows the `/`. */
  readonly name: string;
  /** Where it was read (a path or URI, shown in messages). */
  readonly source: string;
  readonly description?: string;
  /** ask, agent, plan or a custom agent's name; undefined: the one selected (agent when tools are given). */
  readonly agent?: string;
  /** Model names, the first one the server has is used. */
  readonly models: readonly string[];
  /** Tool allow-list for the run (agent modes); undefined: the agent's own. */
  readonly tools?: readonly string[];
  readonly argumentHint?: string;
  readonly body: string;
  /** 0-based line of the file where the body starts (for links and variables). */
  readonly bodyLine: number;
  readonly problems: readonly FileProblem[];
}

export const promptFileSuffix = ".prompt.md";

export const promptFileFormat: FileFormat = {
  what: "prompt file",
  fields: { name: "text", description: "text", agent: "text", mode: "text", model: "list", tools: "list", "argument-hint": "text" },
  ignored: [],
};

/** The command name a file name gives (`fix-tests.prompt.md` -> `fix-tests`). */
export function promptNameOf(fileName: string): string {
  return fileName.endsWith(promptFileSuffix) ? fileName.slice(0, -promptFileSuffix.length) : fileName.replace(/\.md$/, "");
}

export function parsePromptFile(fileName: string, source: string, text: string): PromptFile {
  const front = parseFrontMatter(text);
  const { values, problems } = readFields(front, promptFileFormat);
  const { description, agent, mode, "argument-hint": argumentHint } = values.text;
  const all = [...front.problems, ...problems];
  // Composed: a name on a disk that stores é as e + U+0301 (HFS+) is the name typed.
  const fromFile = promptNameOf(fileName).normalize("NFC");
  const name = values.text.name?.normalize("NFC");
  const typeable = isTypeableName;
  // A display name such as "EditorConfig Expert" (VS Code takes it): the file's name is the command then.
  const commandName = name && (typeable(name) || !typeable(fromFile)) ? name : fromFile;
  const at = front.keys.get("name") ?? { start: { line: 0, column: 0 }, end: { line: 0, column: 3 } };
  if (!typeable(commandName)) {
    all.push({ message: `"${commandName}" cannot be typed as a / command: use letters, digits, dots, dashes and underscores only.`, severity: "error", ...at });
  } else if (name && commandName !== name) {
    all.push({ message: `"${name}" cannot be typed as a / command (letters, digits, dots, dashes and underscores only): this prompt runs as /${commandName}, its file's name.`, severity: "warning", ...at });
  }
  // `mode` is the older name of `agent`; `edit` mode no longer exists and works as agent.
  const chosen = agent || mode;
  const references = resolveToolReferences(front.body, front.bodyLine);
  all.push(...references.problems);
  const tools = withReferencedTools(values.lists.tools, references.tools);
  return {
    name: commandName,
    source,
    ...(description ? { description } : {}),
    ...(chosen ? { agent: chosen === "edit" ? "agent" : chosen } : {}),
    models: values.lists.model ?? [],
    ...(tools ? { tools } : {}),
    ...(argumentHint ? { argumentHint } : {}),
    body: references.text,
    bodyLine: front.bodyLine,
    problems: all,
  };
}

/**
 * The agent a prompt file runs in (ask, agent, plan or a custom agent's name); undefined: the one
 * the switch is on. As in VS Code, a prompt without `agent:` runs in the agent chosen, and only
 * one with `tools` asked in Ask moves to Agent: a custom agent or Plan chosen keeps running, with
 * the prompt's tools.
 */
export function promptAgent(prompt: Pick<PromptFile, "agent" | "tools">, mode: ChatMode): string | undefined {
  if (prompt.agent !== undefined) return prompt.agent;
  return prompt.tools !== undefined && mode === "ask" ? "agent" : undefined;
}

/** Whether a file has a problem that keeps it from being used (warnings do not). */
export function hasErrors(file: { readonly problems: readonly FileProblem[] }): boolean {
  return file.problems.some((p) => p.severity === "error");
}
