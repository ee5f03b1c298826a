/**
 * Whether `run_in_terminal` may run a command without asking: deny rules and auto-approve rules,
 * checked on every command the line runs (see command-units.ts), never on the line as a whole.
 * Any command denied: deny. Every command auto-approved: allow. Anything else: ask the user.
 */
import { commandUnits, type CommandLayer, type CommandUnit, type CommandUnits } from "./command-units";
import { builtInDenyRules, runsAsOtherUser } from "./deny-rules";
import { riskyOption } from "./risky-options";

export interface CommandPolicy {
  /** Command prefixes (word by word) or `/regex/flags`: commands that run without asking. */
  readonly autoApprove: readonly string[];
  /** The same forms, plus the built-in rules of `defaultDenyRules`: commands never run. */
  readonly deny: readonly string[];
}

export type CommandDecision =
  | { readonly kind: "deny"; readonly subcommand: string; readonly reason: string; readonly rule: string }
  /** Every command matched an autoApprove rule; `rule` lists the rules that did, comma-separated. */
  | { readonly kind: "allow"; readonly rule: string }
  | { readonly kind: "ask"; readonly reason?: string };

/** The default of the deny setting: each a built-in rule that matches every spelling of it. */
export const defaultDenyRules: readonly string[] = builtInDenyRules.map((r) => r.rule);

/** The text of each command the line runs, as auto-approve rules see it; undefined when the line does not parse. */
export function subcommands(command: string): readonly string[] | undefined {
  const parsed = commandUnits(command);
  return "error" in parsed ? undefined : parsed.units.map((unit) => judged(unit).text);
}

export function decideCommand(command: string, policy: CommandPolicy): CommandDecision {
  const parsed = commandUnits(command);
  if ("error" in parsed) return { kind: "ask", reason: `The command does not parse as a shell command (${parsed.error}), so it cannot be checked.` };
  const denied = denial(parsed, policy.deny);
  if (denied) return denied;
  if (parsed.units.length === 0) return { kind: "ask", reason: "The command runs nothing." };
  const approvers = policy.autoApprove.flatMap((text) => ruleOf(text) ?? []);
  const used = new Set<string>();
  for (const unit of parsed.units) {
    if (unit.opaque) return { kind: "ask", reason: `It cannot be approved automatically: ${unit.opaque}.` };
    const layer = judged(unit);
    // A prefix rule says which program may run, not which files it may overwrite or what else it may run.
    const risky = riskyOption(layer.words, layer.literalWords);
    const approver = approvers.find((rule) => matches(rule, layer) && (rule.regex !== undefined || (!unit.writesFile && risky === undefined)));
    if (approver) {
      used.add(approver.text);
      continue;
    }
    if (approvers.some((rule) => matches(rule, layer))) {
      if (unit.writesFile) return { kind: "ask", reason: "It writes its output to a file, which always needs approval." };
      const option = "an option that writes files, reads outside the workspace or runs another program";
      const what = risky === "a computed argument" ? `It has a computed argument, which could be ${option}` : risky?.startsWith("-") ? `${risky} is ${option}` : `It has ${risky}`;
      return { kind: "ask", reason: `${what}, which always needs approval.` };
    }
    return { kind: "ask" };
  }
  return { kind: "allow", rule: [...used].join(", ") };
}

/** The rules that are neither a built-in rule, a prefix nor a valid `/regex/` (to warn about). */
export function invalidCommandRules(rules: readonly string[]): string[] {
  return rules.filter((text) => !defaultDenyRules.includes(text) && ruleOf(text) === undefined);
}

/**
 * The layer rules approve: what runs in the end (`timeout 60 npm test` is `npm test`), except
 * that a command run as another user is approved only with that wrapper (`sudo ls`, not `ls`).
 */
function judged(unit: CommandUnit): CommandLayer {
  return unit.layers.find((layer) => runsAsOtherUser(layer.words)) ?? unit.layers.at(-1)!;
}

function denial(parsed: CommandUnits, deny: readonly string[]): CommandDecision | undefined {
  const builtIn = builtInDenyRules.filter((rule) => deny.includes(rule.rule));
  const custom = deny.filter((text) => !defaultDenyRules.includes(text)).flatMap((text) => ruleOf(text) ?? []);
  for (const unit of parsed.units) {
    for (const layer of unit.layers) {
      const hit = builtIn.find((rule) => rule.layer?.(layer.words));
      if (hit) return { kind: "deny", subcommand: layer.text, reason: hit.reason, rule: hit.rule };
      const own = custom.find((rule) => matches(rule, layer));
      if (own) return { kind: "deny", subcommand: layer.text, reason: `it matches the deny rule "${own.text}"`, rule: own.text };
    }
  }
  for (const rule of builtIn) {
    const subcommand = rule.units?.(parsed);
    if (subcommand !== undefined) return { kind: "deny", subcommand, reason: rule.reason, rule: rule.rule };
  }
  return undefined;
}

interface Rule {
  readonly text: string;
  readonly words: readonly string[];
  readonly regex?: RegExp;
}

function ruleOf(text: string): Rule | undefined {
  const trimmed = text.trim();
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(trimmed);
  if (regex) {
    try {
      // Without g and y a RegExp keeps no lastIndex between tests.
      return { text, words: [], regex: new RegExp(regex[1]!, regex[2]!.replace(/[gy]/g, "")) };
    } catch {
      return undefined;
    }
  }
  const words = trimmed.split(/\s+/).filter((w) => w !== "");
  return words.length === 0 ? undefined : { text, words };
}

/** A regex on the command's text; a prefix word by word ("npm test" matches "npm test -- x", not "npm tests"). */
function matches(rule: Rule, layer: CommandLayer): boolean {
  if (rule.regex) return rule.regex.test(layer.text);
  const words = [...layer.assigns, ...layer.words];
  return rule.words.length <= words.length && rule.words.every((word, i) => words[i] === word);
}
