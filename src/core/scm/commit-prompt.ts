/**
 * The request for a commit message: the repository's recent subjects (so the message follows its
 * style: prefixes such as `fix:`, language, length), the team's own rules, and the changes; and
 * the answer made into what goes into the commit box.
 */
import type { ChatMessage } from "../api/chat";
import { answerText } from "../chat/thinking";

export interface CommitPromptInput {
  /** The changes as ChangesDiff's text. */
  readonly diff: string;
  /** Whether `diff` is the staged changes (else all changes: nothing was staged). */
  readonly staged: boolean;
  /** Subjects of the latest commits, newest first. */
  readonly recentSubjects: readonly string[];
  /** wisp.commitMessage.instructions. */
  readonly instructions: string;
  readonly branch?: string;
  /** What the user had written in the commit box before asking (a ticket reference, a merge's message): built on, not thrown away. */
  readonly draft?: string;
}

/** How many recent subjects go with the request. */
export const recentSubjectCount = 10;
/** The longest subject asked for: the width git's own advice and the forges' titles keep to. */
const maxSubjectChars = 72;

/** A gitmoji at a subject's start: the emoji (✨, ♻️) or its :code: (:sparkles:). */
const gitmoji = /^(?::[a-z0-9_+-]+:|\p{Extended_Pictographic}\uFE0F?)/u;

/** What the recent subjects have in common, said plainly so that a small model follows it too. */
export function styleHints(subjects: readonly string[]): string[] {
  if (subjects.length === 0) return [];
  const hints: string[] = [];
  const prefixed = subjects.filter((s) => /^[a-z]+(\([^)]*\))?!?: /.test(s));
  if (prefixed.length * 2 >= subjects.length) {
    const kinds = [...new Set(prefixed.map((s) => s.slice(0, s.indexOf(":") + 1).replace(/\(.*\)/, "")))];
    hints.push(`Start the subject with a Conventional Commits type as they do (${kinds.slice(0, 5).join(", ")}).`);
  }
  const marked = subjects.map((s) => gitmoji.exec(s)?.[0]).filter((mark) => mark !== undefined);
  if (marked.length * 2 >= subjects.length) hints.push(`Start the subject with an emoji for the kind of change (gitmoji), as they do (${[...new Set(marked)].slice(0, 5).join(" ")}).`);
  const lengths = subjects.map((s) => s.length).sort((a, b) => a - b);
  const usual = lengths[Math.floor(lengths.length / 2)]!;
  // A history of long subjects must not ask for one over the limit that git tools and forges cut at.
  hints.push(usual <= maxSubjectChars ? `Keep the subject about ${usual} characters long, as theirs are (never over ${maxSubjectChars}).` : `Keep the subject under ${maxSubjectChars} characters, though theirs run longer: what does not fit goes in the body.`);
  return hints;
}

export function commitMessages(input: CommitPromptInput): ChatMessage[] {
  const rules = [
    "You write git commit messages. Answer with the commit message only: no preamble, no quotes, no code fences.",
    "The first line is the subject: imperative mood, no period at the end. If the change needs it, add a blank line and a short body saying what changed and why.",
    "Write in the language and style of the repository's recent commit subjects.",
    ...styleHints(input.recentSubjects),
  ];
  if (input.instructions.trim() !== "") rules.push(`The team's rules for commit messages (they come first):\n${input.instructions.trim()}`);
  const parts = [
    input.recentSubjects.length > 0 ? `Recent commit subjects of this repository, newest first:\n${input.recentSubjects.map((s) => `- ${s}`).join("\n")}` : "This repository has no commits yet.",
    input.branch ? `Branch: ${input.branch}` : "",
    input.draft?.trim() ? `What I had written in the commit box, to keep (its references, its wording where it fits) and complete into the message:\n${input.draft.trim()}` : "",
    `${input.staged ? "The staged changes" : "The changes (nothing is staged: all of them)"}, as a diff:\n${input.diff}`,
    "Write the commit message for these changes.",
  ];
  return [
    { role: "system", content: rules.join("\n") },
    { role: "user", content: parts.filter((p) => p !== "").join("\n\n") },
  ];
}

/** A chat model's line before the message: "Here is a commit message for these changes:", "Sure! Here's one:". */
const preamble = /^\s*(?:(?:sure|certainly|okay|ok)\b[^\n]*?[.!,]\s*)?(?:here(?:'s| is)|below is|based on)\b[^\n]*:[ \t]*(?:\n|$)/i;

/**
 * The answer so far as it goes into the commit box: without a reasoning model's leading thinking,
 * a "Here is a commit message:" line, a code fence or quotes around it (nor what follows the
 * fence: an explanation) and without a "Commit message:" label; `final` also trims the end.
 */
export function commitBoxText(answer: string, final: boolean): string {
  let text = answerText(answer).replace(preamble, "").replace(/^\s*(?:commit message:\s*)/i, "");
  const fence = /^\s*```[\w-]*(?:\n|$)/.exec(text);
  if (fence) {
    text = text.slice(fence[0].length);
    const close = /(?:^|\n)```/.exec(text);
    if (close) text = text.slice(0, close.index);
  }
  if (final) text = text.replace(/\n?```\s*$/, "");
  // git takes the whole first paragraph for the subject: a body that starts on the second line would join it.
  text = text.replace(/^\s+/, "").replace(/^([^\n]*\S[^\n]*)\n(?=[^\n]*\S)/, "$1\n\n");
  if (!final) return text;
  text = text.trimEnd();
  const quoted = /^(["'`])([\s\S]*)\1$/.exec(text);
  return quoted && !quoted[2]!.includes(quoted[1]!) ? quoted[2]!.trim() : text;
}

/** The first line of each commit message. */
export function subjectsOf(messages: readonly string[]): string[] {
  return messages.map((m) => m.split("\n", 1)[0]!.trim()).filter((s) => s !== "");
}
