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
    /** The chat's path of a path the agent gave (relative to its folder): what instructions match. */
    private readonly chatPath: (path: string) => string,
  ) {}

  /** The last list filtered, so that an unchanged list stays the same array (the session compares them). */
  private filtered: { readonly from: readonly ChatTool[]; readonly to: readonly ChatTool[] } | undefined;

  async definitions(step: () => StepReporter, signal: AbortSignal): Promise<readonly ChatTool[]> {
    return this.filter(await this.inner.definitions(step, signal));
  }

  /** The tools as they are now (an MCP server's list may have changed), filtered the same way. */
  async current(): Promise<readonly ChatTool[]> {
    if (!this.inner.current) return this.filtered?.to ?? [];
    return this.filter(await this.inner.current());
  }

  validate(call: ToolCall) {
    if (!this.allowed(call.function.name)) return { ok: false as const, error: `${call.function.name || "This tool"} is not one of this agent's tools: use only the tools offered.` };
    return this.inner.validate(call);
  }

  async run(call: ValidCall, signal: AbortSignal, step: StepReporter): Promise<ToolOutcome> {
    const outcome = await this.inner.run(call, signal, step);
    if (!editTools.has(call.name) || outcome.isError || typeof call.args.path !== "string") return outcome;
    const instructions = this.custom.instructionsForEdit(this.chatPath(call.args.path.replace(/^\.\//, "")));
    return instructions ? { ...outcome, content: `${outcome.content}\n\n${instructions}` } : outcome;
  }

  private filter(all: readonly ChatTool[]): readonly ChatTool[] {
    if (this.filtered?.from !== all) this.filtered = { from: all, to: all.filter((tool) => this.allowed(tool.function.name)) };
    return this.filtered.to;
  }

  private allowed(name: string): boolean {
    const list = this.custom.allowList;
    if (list === undefined) return true;
    const mcp = this.mcpOf(name);
    return allows(list, { name, ...(mcp ? { mcp } : {}) });
  }
}
