/** How many prompts `Wisp: Generate Image` remembers. */
export const maxRecentPrompts = 20;

/** The recent prompts with `prompt` first, without repeats (ignoring spacing), at most `max`. */
export function rememberPrompt(recent: readonly string[], prompt: string, max = maxRecentPrompts): string[] {
  const key = (text: string) => text.replace(/\s+/g, " ").trim();
  const wanted = key(prompt);
  if (wanted === "") return recent.slice(0, max);
  return [wanted, ...recent.filter((old) => key(old) !== wanted && key(old) !== "")].slice(0, max);
}

/** What was stored as recent prompts, made safe to use: strings only, at most `max`. */
export function readRecentPrompts(stored: unknown, max = maxRecentPrompts): string[] {
  if (!Array.isArray(stored)) return [];
  return stored.filter((item): item is string => typeof item === "string" && item.trim() !== "").slice(0, max);
}
