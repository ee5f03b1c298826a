/**
 * The `/` commands of the chat's prompt box: Wisp's own, then one per prompt file. Typing `/` at
 * the start of the box lists them; the text after the command is its argument.
 */
import { commandNameChar } from "./command-name";

export type BuiltInCommand = "explain" | "fix" | "tests" | "new" | "compact" | "init" | "plan";

export interface SlashCommandItem {
  /** What follows the `/`. */
  readonly name: string;
  readonly description: string;
  /** What to type after it (shown in the list). */
  readonly argumentHint?: string;
  /** `prompt`: a prompt file's. */
  readonly kind: "built-in" | "prompt";
}

export const builtInCommands: readonly (SlashCommandItem & { readonly name: BuiltInCommand })[] = [
  { name: "explain", description: "Explain the selected code (or what is attached)", argumentHint: "what to focus on", kind: "built-in" },
  { name: "fix", description: "Find and fix problems in the selected code", argumentHint: "the problem", kind: "built-in" },
  { name: "tests", description: "Write tests for the selected code", argumentHint: "what to cover", kind: "built-in" },
  { name: "new", description: "Start a new conversation", kind: "built-in" },
  { name: "compact", description: "Replace the conversation with a summary and go on from it", argumentHint: "what the summary should keep", kind: "built-in" },
  { name: "init", description: "Draft an AGENTS.md for this workspace, to review before it is written", kind: "built-in" },
  { name: "plan", description: "Plan a task with the Plan agent (reads only, answers with a plan)", argumentHint: "the task", kind: "built-in" },
];

export function isBuiltInCommand(name: string): name is BuiltInCommand {
  return builtInCommands.some((c) => c.name === name);
}

/** A command name's characters: a prompt file's name may have its folder before it (`beta:review`, see folder-qualified-names.ts). */
const nameChars = `(?:${commandNameChar}|:)`;
/** A command's word, as far as it is typed. */
export const commandWord = new RegExp(String.raw`^\/${nameChars}*`, "u");
/** `/name`, then a space or a line break and its argument, or the end. */
const commandMessage = new RegExp(String.raw`^\/(${nameChars}+)(?:\s+([\s\S]*))?$`, "u");

/** The command a message starts with (`/name` then a space, a line break or the end), and its argument. */
export function parseSlashCommand(text: string): { name: string; argument: string } | undefined {
  const match = commandMessage.exec(text.trimStart());
  if (!match) return undefined;
  // Composed as prompt files' names are: é typed as e + U+0301 is still é.
  return { name: match[1]!.normalize("NFC"), argument: (match[2] ?? "").trim() };
}

/**
 * What the `/` list filters on while the caret is in the box's first word and that word starts
 * with `/`; undefined otherwise (the list is closed).
 */
export function activeSlashQuery(text: string, caret: number): string | undefined {
  if (!text.startsWith("/")) return undefined;
  const word = commandWord.exec(text)![0];
  if (caret < 1 || caret > word.length) return undefined;
  return word.slice(1);
}

/** The commands whose name starts with the query first, then those that contain it. */
export function filterCommands(items: readonly SlashCommandItem[], query: string): SlashCommandItem[] {
  const q = query.toLowerCase();
  const starts = items.filter((c) => c.name.toLowerCase().startsWith(q));
  const contains = items.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...starts, ...contains];
}
