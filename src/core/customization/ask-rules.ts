/**
 * The project's rules (AGENTS.md, .github/copilot-instructions.md …) in an Ask question's system
 * prompt, as VS Code adds them to every chat request. They take at most a share of the prompt's
 * room, so that a large rules file cannot push the question (or its attached code) out of the
 * model's context: what does not fit is cut, and the prompt says so.
 */
import { maxRuleChars, type RuleFile } from "../agent/agent-prompt";
import { defaultTokensPerChar, type ContextBudget } from "../chat/context-trim";

/** The share of the prompt's room (the context less the answer's) the rules may take. */
export const rulesShare = 0.25;
/** Less room than this for a file's rules: it is left out rather than cut to a few words. */
const minRuleChars = 200;

/** Each rules file as a part of the system prompt, named by its path, cut to fit the budget. */
export function askRulesParts(rules: readonly RuleFile[], budget: ContextBudget): string[] {
  const reserve = Math.min(Math.max(0, budget.maxTokens), Math.floor(budget.contextTokens / 2));
  let room = Math.floor((Math.max(0, budget.contextTokens - reserve) * rulesShare) / (budget.tokensPerChar ?? defaultTokensPerChar));
  const parts: string[] = [];
  const left: string[] = [];
  for (const rule of rules) {
    const heading = `Project rules from ${rule.path}:\n`;
    const text = rule.text.trim();
    const fits = Math.min(maxRuleChars, room - heading.length);
    if (fits < Math.min(minRuleChars, text.length)) {
      left.push(rule.path);
      continue;
    }
    const why = fits < maxRuleChars ? " to fit the model's context" : "";
    const kept = text.length > fits ? `${text.slice(0, fits)}\n[…cut at ${fits} characters${why}]` : text;
    parts.push(heading + kept);
    room -= heading.length + Math.min(text.length, fits);
  }
  if (left.length > 0) parts.push(`[Project rules from ${left.join(", ")} left out to fit the model's context.]`);
  return parts;
}
