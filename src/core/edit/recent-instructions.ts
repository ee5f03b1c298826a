/** The instructions Edit Selection offers again, newest first (same rules as image prompts). */
export { readRecentPrompts as readRecentInstructions, rememberPrompt as rememberInstruction } from "../image/recent-prompts";
