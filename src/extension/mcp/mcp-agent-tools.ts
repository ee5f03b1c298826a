import * as vscode from "vscode";
import type { ToolOutcome } from "../../core/agent/agent-loop";
import type { StepReporter } from "../../core/agent/agent-session";
import type { ToolStep } from "../../core/agent/agent-task";
import { offeredTools, resultText, type OfferedTool } from "../../core/mcp/mcp-tools";
import { cutOutput } from "../../core/agent/output-cut";
import type { Approvals } from "../agent/approvals";
import type { McpServers } from "./mcp-servers";
import { McpToolApprovals } from "./mcp-tool-approvals";

export interface McpAgentSettings {
  readonly maxTools: number;
  readonly timeoutSeconds: number;
  readonly maxOutputChars: number;
}

/** The pseudo tool of a server's start card in the transcript. */
export const mcpStartTool = "mcp_start";

/**
 * MCP servers' tools in agent mode: started when a task first needs them, offered as each server
 * lists them now (a list it changes during a task is offered from the next step), each call
 * approved for the tool's exact definition.
 */
export class McpAgentTools {
  private offered: readonly OfferedTool[] = [];
  /** The offered tools as text, to tell whether a new list differs. */
  private offeredText = "[]";
  private readonly toolApprovals: McpToolApprovals;

  constructor(
    private readonly servers: McpServers,
    private readonly approvals: Approvals,
    memento: vscode.Memento,
    private readonly settings: () => McpAgentSettings,
  ) {
    this.toolApprovals = new McpToolApprovals(memento);
  }

  /** Starts the servers (asking before a workspace server's first start) and names their tools for the model. */
  async offer(newStep: () => StepReporter, signal: AbortSignal, taken: ReadonlySet<string>): Promise<readonly OfferedTool[]> {
    await this.servers.refresh();
    const configured = await this.servers.list();
    if (configured.length === 0) return this.use([]);
    if (!vscode.workspace.isTrusted) {
      newStep().update({ tool: mcpStartTool, title: "MCP servers not started", status: "denied", note: "This workspace is not trusted (Restricted Mode): no MCP server starts." });
      return this.use([]);
    }
    const before = new Map(configured.map((s) => [s.entry.name, s.state.kind]));
    await this.servers.startAll(async (entry, runs) => {
      const step = newStep();
      step.update({ tool: mcpStartTool, title: `start MCP server ${entry.name}`, command: runs });
      const note = "The workspace's .vscode/mcp.json defines this server: starting it runs this program on your machine. The answer is remembered for this workspace.";
      const answer = await this.approvals.ask(step, `mcp-start:${entry.name}:${runs}`, { note }, signal);
      const allowed = answer === "allow" || answer === "session" || answer === "always";
      step.update({ status: allowed ? "done" : answer === "stopped" ? "stopped" : "denied" });
      return allowed;
    }, signal);
    for (const server of await this.servers.list()) {
      if (server.state.kind === "failed" && before.get(server.entry.name) !== "failed") {
        newStep().update({ tool: mcpStartTool, title: `MCP server ${server.entry.name} failed`, status: "failed", note: `${server.state.message.split("\n")[0]} (details: Wisp: MCP Servers > Show Output)` });
      }
    }
    const { maxTools } = this.settings();
    const leftOut = await this.list(taken);
    if (leftOut.length > 0) {
      newStep().update({ tool: mcpStartTool, title: `${leftOut.length} MCP tool(s) left out`, status: "done", note: `At most ${maxTools} MCP tools are offered (wisp.mcp.maxTools); left out: ${leftOut.join(", ")}.` });
    }
    return this.offered;
  }

  /**
   * The tools for the agent's next step: the running servers' lists as they are now (a server may
   * have announced a change). The same array while nothing changed.
   */
  async current(taken: ReadonlySet<string>): Promise<readonly OfferedTool[]> {
    await this.list(taken);
    return this.offered;
  }

  /** Names the running servers' tools for the model; returns the ones left out. */
  private async list(taken: ReadonlySet<string>): Promise<string[]> {
    const running = await this.servers.tools();
    const { offered, leftOut } = offeredTools(running.flatMap((s) => s.tools), this.settings().maxTools, taken);
    this.use(offered);
    return leftOut;
  }

  /** Takes a new list, keeping the one held while it is the same. */
  private use(offered: readonly OfferedTool[]): readonly OfferedTool[] {
    const text = JSON.stringify(offered);
    if (text !== this.offeredText) {
      this.offered = offered;
      this.offeredText = text;
    }
    return this.offered;
  }

  find(name: string): OfferedTool | undefined {
    return this.offered.find((t) => t.name === name);
  }

  async run(tool: OfferedTool, args: Record<string, unknown>, step: StepReporter, signal: AbortSignal): Promise<ToolOutcome> {
    step.update({ title: `${tool.server}: ${tool.tool}`, command: JSON.stringify(args, null, 2) });
    const id = `${tool.server}/${tool.tool}`;
    // The definition as the server has it now: it may have changed since the model was offered it.
    const running = (await this.servers.tools()).find((s) => s.server === tool.server);
    const now = running?.tools.find((t) => t.name === tool.tool);
    if (!running || !now) return { content: `The MCP server "${tool.server}" no longer offers ${tool.tool}.`, isError: true };
    const definition = { name: now.name, description: now.description ?? "", inputSchema: now.inputSchema };
    const config = running.config;
    const approval = this.toolApprovals.check(id, config, definition);
    if (!approval.allowed) {
      const note = approval.changes
        ? `The tool ${tool.tool} of the MCP server "${tool.server}" changed since you allowed it: what changed is shown below.`
        : `A tool of the MCP server "${tool.server}".`;
      // The description as the server gave it: what the model reads about this tool.
      const card: Partial<ToolStep> = { note, description: definition.description || "(the server gave no description)", ...(approval.changes ? { changes: approval.changes } : {}) };
      const answer = await this.approvals.ask(step, approval.sessionKey, card, signal);
      if (answer === "deny" || answer === "stopped") {
        step.update({ status: answer === "stopped" ? "stopped" : "denied" });
        return { content: answer === "stopped" ? "Not run: the user stopped the task." : `The user denied this call of ${tool.tool}; it was not made.`, isError: true };
      }
      await this.toolApprovals.allowed(id, config, definition, answer === "always");
      step.update({ status: "running" });
    }
    const connection = this.servers.connection(tool.server);
    if (!connection) return { content: `The MCP server "${tool.server}" is not running.`, isError: true };
    try {
      const { timeoutSeconds, maxOutputChars } = this.settings();
      const result = await connection.call(tool.tool, args, timeoutSeconds * 1000, signal);
      const text = cutOutput(resultText(result.content, result.structured), maxOutputChars);
      step.update({ status: result.isError ? "failed" : "done", output: text });
      return { content: text || "(no content)", ...(result.isError ? { isError: true } : {}) };
    } catch (error) {
      // Stop cancels the call (the SDK tells the server): the user's doing, not the tool's failure.
      if (signal.aborted) {
        step.update({ status: "stopped", note: "Stopped by the user before the server answered: it may have done part of the work." });
        return { content: "Stopped: the user stopped the task before the MCP server answered.", isError: true };
      }
      return { content: `The call failed: ${(error as Error).message}`, isError: true };
    }
  }
}
