import type { ChatTool, ToolCall } from "../../core/api/chat";
import type { ToolOutcome, ValidCall } from "../../core/agent/agent-loop";
import type { AgentTools, StepReporter } from "../../core/agent/agent-session";
import { agentTools, type AgentToolName } from "../../core/agent/tool-schemas";
import { ToolArgValidator, type ToolSchemaCompiler } from "../../core/agent/tool-args";
import type { AgentWorkspace } from "./agent-workspace";
import type { CommandToolDeps } from "./command-tool";
import { EditTools } from "./edit-tools";
import { fileSearch, getErrors, grepSearch, listDir, readFile } from "./read-tools";
import type { OfferedTool } from "../../core/mcp/mcp-tools";
import type { McpAgentTools } from "../mcp/mcp-agent-tools";

/** The agent's own tool names: MCP tools are named around them. */
const ownNames: ReadonlySet<string> = new Set(agentTools.map((t) => t.function.name));

/** The agent's tools over one workspace folder, and those of the MCP servers, for one task. */
export class WorkspaceTools implements AgentTools {
  private validator: ToolArgValidator | undefined;
  private offered: readonly OfferedTool[] = [];
  private all: readonly ChatTool[] = agentTools;
  /** MCP tools offered earlier in this task and gone since (a server that stopped): name -> server. */
  private readonly gone = new Map<string, string>();

  constructor(
    private readonly ws: AgentWorkspace,
    private readonly edits: EditTools,
    private readonly command: CommandToolDeps,
    private readonly mcp: McpAgentTools | undefined,
    /** Kept by the controller, so each task does not compile the same schemas again. */
    private readonly schemas: ToolSchemaCompiler,
  ) {}

  async definitions(step: () => StepReporter, signal: AbortSignal): Promise<readonly ChatTool[]> {
    return this.use(this.mcp ? await this.mcp.offer(step, signal, ownNames) : []);
  }

  /** The tools for the next step: the MCP servers' lists as they are now. */
  async current(): Promise<readonly ChatTool[]> {
    return this.mcp ? this.use(await this.mcp.current(ownNames)) : this.all;
  }

  /** The tools with these MCP tools (the same array, and validator, while they are the same). */
  private use(offered: readonly OfferedTool[]): readonly ChatTool[] {
    if (offered === this.offered && this.validator) return this.all;
    for (const tool of this.offered) this.gone.set(tool.name, tool.server);
    for (const tool of offered) this.gone.delete(tool.name);
    this.offered = offered;
    this.all = offered.length === 0 ? agentTools : [...agentTools, ...offered.map((t) => t.chatTool)];
    this.validator = new ToolArgValidator(this.all, this.schemas, this.gone);
    return this.all;
  }

  validate(call: ToolCall) {
    this.validator ??= new ToolArgValidator(agentTools, this.schemas);
    return this.validator.validate(call.function.name, call.function.arguments);
  }

  async run(call: ValidCall, signal: AbortSignal, step: StepReporter): Promise<ToolOutcome> {
    step.update({ tool: call.name, title: call.name, status: "running" });
    try {
      const mcp = this.mcp?.find(call.name);
      const outcome = mcp ? await this.mcp!.run(mcp, call.args, step, signal) : await this.dispatch(call.name as AgentToolName, call.args, signal, step);
      const status = step.current()?.status;
      if (outcome.isError && status !== "denied" && status !== "stopped") step.update({ status: "failed", note: outcome.content });
      return outcome;
    } catch (error) {
      const message = (error as Error).message;
      step.update({ status: "failed", note: message });
      return { content: `The tool failed: ${message}`, isError: true };
    }
  }

  private async dispatch(name: AgentToolName, args: Record<string, unknown>, signal: AbortSignal, step: StepReporter): Promise<ToolOutcome> {
    const a = args as never;
    switch (name) {
      case "read_file":
        return readFile(this.ws, a, step, signal);
      case "list_dir":
        return listDir(this.ws, a, step);
      case "file_search":
        return fileSearch(this.ws, a, step);
      case "grep_search":
        return grepSearch(this.ws, a, step);
      case "get_errors":
        return getErrors(this.ws, a, step);
      case "create_file":
        return this.edits.createFile(a, step, signal);
      case "replace_string_in_file":
        return this.edits.replaceString(a, step, signal);
      case "run_in_terminal":
        // Loaded on first use: the shell parser takes a few hundred ms to load, not worth paying at startup.
        return (await import("./command-tool")).runInTerminal(this.command, a, step, signal);
    }
  }
}
