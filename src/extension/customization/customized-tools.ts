import type { ToolCall, ChatTool } from "../../core/api/chat";
import type { ToolOutcome, ValidCall } from "../../core/agent/agent-loop";
import type { AgentTools, StepReporter } from "../../core/agent/agent-session";
import type { TaskCustomization } from "../../core/customization/task-customization";
import { allows } from "../../core/customization/tool-allow-list";

const editTools: ReadonlySet<string> = new Set(["create_file", "replace_string_in_file"]);

/**
 * A task's tools as its agent may use them: only those of its allow-list are offered, a call of
 * another is refused, and an edit's result carries the scoped instructions for the edited file.
 */
export class CustomizedTools implements AgentTools {
  constructor(
    private readonly inner: AgentTools,
    private readonly custom: TaskCustomization,
    /** The MCP server and own name of an MCP tool offered under `name`. */
    private readonly mcpOf: (name: string) => { readonly server: string; readonly tool: string } | undefined,
  ) {}

  async definitions(step: () => StepReporter, signal: AbortSignal): Promise<readonly ChatTool[]> {
    const all = await this.inner.definitions(step, signal);
    return all.filter((tool) => this.allowed(tool.function.name));
  }

  validate(call: ToolCall) {
    if (!this.allowed(call.function.name)) return { ok: false as const, error: `${call.function.name || "This tool"} is not one of this agent's tools: use only the tools offered.` };
    return this.inner.validate(call);
  }

  async run(call: ValidCall, signal: AbortSignal, step: StepReporter): Promise<ToolOutcome> {
    const outcome = await this.inner.run(call, signal, step);
    if (!editTools.has(call.name) || outcome.isError || typeof call.args.path !== "string") return outcome;
    const instructions = this.custom.instructionsForEdit(call.args.path.replace(/^\.\//, ""));
    return instructions ? { ...outcome, content: `${outcome.content}\n\n${instructions}` } : outcome;
  }

  private allowed(name: string): boolean {
    const list = this.custom.allowList;
    if (list === undefined) return true;
    const mcp = this.mcpOf(name);
    return allows(list, { name, ...(mcp ? { mcp } : {}) });
  }
}
