/**
 * The project's rules (AGENTS.md, .github/copilot-instructions.md …) and the scoped instructions
 * in play in an Ask question's system prompt, as VS Code adds them to every chat request. They take
 * at most a share of the prompt's room, so that a large rules or instructions file cannot push the
 * question (or its attached code) out of the model's context: what does not fit is cut, and the
 * prompt says so.
 */
import { cutText, maxRuleChars, type RuleFile } from "../agent/agent-prompt";
import { defaultTokensPerChar, type ContextBudget } from "../chat/context-trim";
import { instructionsHeading } from "./paths-in-play";
import type { ScopedInstructions } from "./scoped-instructions";

/** The share of the prompt's room (the context less the answer's) the rules and instructions may take. */
export const rulesShare = 0.25;
/** Less room than this for a file's text: it is left out rather than cut to a few words. */
const minRuleChars = 200;

/** A file of guidance as the prompt names it. */
interface Guidance {
  readonly heading: string;
  readonly text: string;
  /** How the note on a file left out names it. */
  readonly leftOut: string;
}

/**
 * Each rules file, then each instructions file, as a part of the system prompt, named by its path,
 * cut to fit the budget they share.
 */
export function askRulesParts(rules: readonly RuleFile[], budget: ContextBudget, instructions: readonly ScopedInstructions[] = []): string[] {
  const reserve = Math.min(Math.max(0, budget.maxTokens), Math.floor(budget.contextTokens / 2));
  let room = Math.floor((Math.max(0, budget.contextTokens - reserve) * rulesShare) / (budget.tokensPerChar ?? defaultTokensPerChar));
  const files: Guidance[] = [
    ...rules.map((rule) => ({ heading: `Project rules from ${rule.path}:\n`, text: rule.text.trim(), leftOut: `Project rules from ${rule.path}` })),
    ...instructions.map((file) => ({ heading: instructionsHeading(file), text: file.text.trim(), leftOut: `Instructions from ${file.source}` })),
  ];
  const parts: string[] = [];
  const left: string[] = [];
  for (const file of files) {
    const fits = Math.min(maxRuleChars, room - file.heading.length);
    if (fits < Math.min(minRuleChars, file.text.length)) {
      left.push(file.leftOut);
      continue;
    }
    parts.push(file.heading + cutText(file.text, fits, fits < maxRuleChars ? " to fit the model's context" : ""));
    room -= file.heading.length + Math.min(file.text.length, fits);
  }
  if (left.length > 0) parts.push(`[${left.join(", ")} left out to fit the model's context.]`);
  return parts;
}
