/**
 * Custom agents (`.github/agents/NAME.agent.md`, or `.chatmode.md` as Copilot first called them):
 * a name in the composer's switch, a tool allow-list, a model, instructions (the body) and
 * handoffs (buttons under an answer that continue in another agent).
 */
import { readFields, type FileFormat, type Handoff } from "./file-fields";
import { parseFrontMatter, type FileProblem } from "./front-matter";
import { resolveToolReferences, withReferencedTools } from "./tool-references";

export interface CustomAgent {
  /** Its name in the switch and in `agent:` fields. */
  readonly name: string;
  readonly source: string;
  readonly description?: string;
  /** The tools it may use (Wisp's names, Copilot's aliases, `server/*` for an MCP server's); undefined: all. */
  readonly tools?: readonly string[];
  readonly models: readonly string[];
  readonly handoffs: readonly Handoff[];
  /**
   * False (`user-invocable: false`): not in the switch, as VS Code keeps it out of its agent picker
   * (there it is a subagent); still an agent that handoffs and prompt files may name.
   */
  readonly userInvocable: boolean;
  /** The body: added to the agent's system prompt. */
  readonly instructions: string;
  readonly problems: readonly FileProblem[];
}

export const agentFileSuffixes = [".agent.md", ".chatmode.md"] as const;

export const agentFileFormat: FileFormat = {
  what: "agent file",
  fields: { name: "text", description: "text", tools: "list", model: "list", handoffs: "handoffs", "user-invocable": "text", "user-invokable": "text" },
  ignored: ["argument-hint", "target", "infer", "mcp-servers", "disable-model-invocation", "agents"],
};

/** The names of the switch's own modes: a custom agent cannot take them. */
export const reservedAgentNames: readonly string[] = ["ask", "agent", "plan", "edit"];

export function agentNameOf(fileName: string): string {
  const suffix = agentFileSuffixes.find((s) => fileName.endsWith(s));
  return suffix ? fileName.slice(0, -suffix.length) : fileName.replace(/\.md$/, "");
}

export function parseCustomAgent(fileName: string, source: string, text: string): CustomAgent {
  const front = parseFrontMatter(text);
  const { values, problems } = readFields(front, agentFileFormat);
  const name = values.text.name || agentNameOf(fileName);
  const references = resolveToolReferences(front.body, front.bodyLine);
  const all = [...front.problems, ...problems, ...references.problems];
  const tools = withReferencedTools(values.lists.tools, references.tools);
  if (reservedAgentNames.includes(name.toLowerCase())) {
    all.push({ message: `"${name}" is the name of one of Wisp's own modes: give this agent another name.`, severity: "error", ...(front.keys.get("name") ?? { start: { line: 0, column: 0 }, end: { line: 0, column: 3 } }) });
  }
  return {
    name,
    source,
    ...(values.text.description ? { description: values.text.description } : {}),
    ...(tools ? { tools } : {}),
    models: values.lists.model ?? [],
    handoffs: values.handoffs,
    // `user-invokable` is the spelling VS Code first read.
    userInvocable: (values.text["user-invocable"] ?? values.text["user-invokable"]) !== "false",
    instructions: references.text.trim(),
    problems: all,
  };
}
