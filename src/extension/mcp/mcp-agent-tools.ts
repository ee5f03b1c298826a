import * as vscode from "vscode";
import type { ToolOutcome } from "../../core/agent/agent-loop";
import type { StepReporter } from "../../core/agent/agent-session";
import { offeredTools, resultText, type OfferedTool } from "../../core/mcp/mcp-tools";
import { cutOutput } from "../../core/agent/output-cut";
import type { Approvals } from "../agent/approvals";
import type { McpServers } from "./mcp-servers";

export interface McpAgentSettings {
  readonly maxTools: number;
  readonly timeoutSeconds: number;
  readonly maxOutputChars: number;
}

const alwaysKey = "wisp.mcp.alwaysAllow";
/** The pseudo tool of a server's start card in the transcript. */
export const mcpStartTool = "mcp_start";

/** MCP servers' tools in agent mode: started when a task first needs them, each call approved. */
export class McpAgentTools {
  private offered: readonly OfferedTool[] = [];

  constructor(
    private readonly servers: McpServers,
    private readonly approvals: Approvals,
    private readonly memento: vscode.Memento,
    private readonly settings: () => McpAgentSettings,
  ) {}

  /** Starts the servers (asking before a workspace server's first start) and names their tools for the model. */
  async offer(newStep: () => StepReporter, signal: AbortSignal, taken: ReadonlySet<string>): Promise<readonly OfferedTool[]> {
    await this.servers.refresh();
    const configured = await this.servers.list();
    if (configured.length === 0) return (this.offered = []);
    if (!vscode.workspace.isTrusted) {
      newStep().update({ tool: mcpStartTool, title: "MCP servers not started", status: "denied", note: "This workspace is not trusted (Restricted Mode): no MCP server starts." });
      return (this.offered = []);
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
    });
    for (const server of await this.servers.list()) {
      if (server.state.kind === "failed" && before.get(server.entry.name) !== "failed") {
        newStep().update({ tool: mcpStartTool, title: `MCP server ${server.entry.name} failed`, status: "failed", note: `${server.state.message.split("\n")[0]} (details: Wisp: MCP Servers > Show Output)` });
      }
    }
    const all = this.servers.tools().flatMap((s) => s.tools);
    const { maxTools } = this.settings();
    const { offered, leftOut } = offeredTools(all, maxTools, taken);
    if (leftOut.length > 0) {
      newStep().update({ tool: mcpStartTool, title: `${leftOut.length} MCP tool(s) left out`, status: "done", note: `At most ${maxTools} MCP tools are offered (wisp.mcp.maxTools); left out: ${leftOut.join(", ")}.` });
    }
    return (this.offered = offered);
  }

  find(name: string): OfferedTool | undefined {
    return this.offered.find((t) => t.name === name);
  }

  async run(tool: OfferedTool, args: Record<string, unknown>, step: StepReporter, signal: AbortSignal): Promise<ToolOutcome> {
    step.update({ title: `${tool.server}: ${tool.tool}`, command: JSON.stringify(args, null, 2) });
    const id = `${tool.server}/${tool.tool}`;
    if (!this.always().includes(id)) {
      const answer = await this.approvals.ask(step, `mcp:${id}`, { note: `A tool of the MCP server "${tool.server}".` }, signal);
      if (answer === "deny" || answer === "stopped") {
        step.update({ status: answer === "stopped" ? "stopped" : "denied" });
        return { content: answer === "stopped" ? "Not run: the user stopped the task." : `The user denied this call of ${tool.tool}; it was not made.`, isError: true };
      }
      if (answer === "always") await this.memento.update(alwaysKey, [...this.always(), id]);
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
      return { content: `The call failed: ${(error as Error).message}`, isError: true };
    }
  }

  private always(): string[] {
    return this.memento.get<string[]>(alwaysKey) ?? [];
  }
}
