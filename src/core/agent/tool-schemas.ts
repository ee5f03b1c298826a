/**
 * The agent's tools as the chat request's `tools` array. Names and parameters are the ones other
 * assistants use (Copilot's agent mode), so open models trained on them call them well.
 */
import type { ChatTool } from "../api/chat";
import { todoTool } from "./todo-list";

export type AgentToolName =
  | "read_file"
  | "list_dir"
  | "file_search"
  | "grep_search"
  | "get_errors"
  | "create_file"
  | "replace_string_in_file"
  | "run_in_terminal";

const path = (what: string) => ({ type: "string", description: `${what}, relative to the workspace folder (for example "src/app.ts"); absolute paths and paths leaving the workspace are refused.` });

const tool = (name: AgentToolName, description: string, properties: Record<string, unknown>, required: readonly string[]): ChatTool => ({
  type: "function",
  function: { name, description, parameters: { type: "object", properties, required: [...required], additionalProperties: false } },
});

export const agentTools: readonly ChatTool[] = [
  tool(
    "read_file",
    "Read a text file of the workspace. Lines are numbered from 1; give start_line and end_line (inclusive) to read part of a long file. Read a file before editing it.",
    {
      path: path("The file"),
      start_line: { type: "integer", minimum: 1, description: "First line to read (1-based). Default: 1." },
      end_line: { type: "integer", minimum: 1, description: "Last line to read (1-based, inclusive). Default: the end of the file." },
    },
    ["path"],
  ),
  tool(
    "list_dir",
    "List the files and folders in a folder of the workspace (folders end with /). Use \".\" for the workspace folder itself.",
    { path: path("The folder") },
    ["path"],
  ),
  tool(
    "file_search",
    "Find files of the workspace by name with a glob pattern, for example \"**/*.test.ts\" or \"src/**/cart*\". Returns matching paths relative to the workspace folder; ignored files (.gitignore, files.exclude) are left out.",
    { query: { type: "string", description: "A glob pattern matched against paths relative to the workspace folder." } },
    ["query"],
  ),
  tool(
    "grep_search",
    "Search the text of the workspace's files. Returns matching lines with their file path and line number. Ignored files (.gitignore, files.exclude) are left out.",
    {
      query: { type: "string", description: "The text to find, or a regular expression when is_regexp is true. Case-insensitive." },
      is_regexp: { type: "boolean", description: "Treat query as a regular expression (JavaScript syntax). Default: false." },
      include: { type: "string", description: "Only search files whose path matches this glob, for example \"src/**/*.ts\"." },
    },
    ["query"],
  ),
  tool(
    "get_errors",
    "Get the compile and lint errors and warnings (diagnostics) the editor reports, for the given files or for the whole workspace. Use it after editing to check the change.",
    { paths: { type: "array", items: { type: "string" }, description: "Files, relative to the workspace folder. Omit for every file with problems." } },
    [],
  ),
  tool(
    "create_file",
    "Create a new file with the given content, or replace an existing file's whole content. Missing folders are created. To change part of an existing file, use replace_string_in_file instead.",
    { path: path("The file to write"), content: { type: "string", description: "The complete content of the file." } },
    ["path", "content"],
  ),
  tool(
    "replace_string_in_file",
    "Edit a file by replacing one exact piece of text. old_string must occur exactly once in the file: copy it exactly as the file has it (whitespace and indentation included) with 3 to 5 lines of unchanged context before and after the change, so it matches one place only. If it matches no place or several, the edit is refused with the number of matches; read the file again and retry.",
    {
      path: path("The file to edit"),
      old_string: { type: "string", description: "The exact text to replace, with surrounding context lines; must occur exactly once." },
      new_string: { type: "string", description: "The text to put in its place (the same context lines, with the change)." },
    },
    ["path", "old_string", "new_string"],
  ),
  tool(
    "run_in_terminal",
    "Run a shell command in the workspace folder and get its exit code and output (long output is cut in the middle). The user may be asked to approve it first, and may deny it. Use it to build, test and inspect; the command must finish on its own (no interactive programs, no servers that keep running).",
    {
      command: { type: "string", description: "The command line to run in the user's shell." },
      explanation: { type: "string", description: "One sentence for the user: what the command does and why it is needed." },
    },
    ["command"],
  ),
  // Run by the session itself (the list is the task's), not by the workspace's tools.
  todoTool,
];
