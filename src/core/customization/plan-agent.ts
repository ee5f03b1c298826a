/**
 * The built-in Plan agent, as data: it reads and searches but changes nothing, answers with a
 * plan, and hands the plan to Agent mode with Start Implementation.
 */
import type { CustomAgent } from "./custom-agent";

export const planAgentId = "plan";

export const planAgent: CustomAgent = {
  name: "Plan",
  source: "built-in",
  description: "Researches the task with read-only tools and answers with a plan; Start Implementation hands it to Agent.",
  tools: ["read_file", "list_dir", "file_search", "grep_search", "get_errors"],
  models: [],
  handoffs: [{ label: "Start Implementation", agent: "agent", prompt: "Implement the plan above, step by step. Check the work as the plan says.", send: true }],
  userInvocable: true,
  instructions: [
    "You are in planning mode: research the task and answer with a plan; do not implement it.",
    "You have read-only tools (read files, list folders, find files by name, search their text, read the problems the editor reports). You cannot edit files or run commands: never claim to have changed anything.",
    "Read the code the task touches before planning. Then answer with: the goal in one or two sentences; numbered steps, each naming the files, functions or tests to change and how; how to check the work (the tests or commands to run); open questions and risks, if any.",
    "Keep the plan short and concrete: an agent will carry it out as written.",
  ].join("\n"),
  problems: [],
};
