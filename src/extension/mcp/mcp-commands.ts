import * as vscode from "vscode";
import type { Logger } from "../logger";
import { registerWispCommand } from "../run-command";
import type { McpServers, McpServerState } from "./mcp-servers";

const stateText = (state: McpServerState): string => {
  switch (state.kind) {
    case "running":
      return `running, ${state.tools} tool${state.tools === 1 ? "" : "s"}`;
    case "failed":
      return `failed: ${state.message.split("\n")[0]}`;
    default:
      return state.kind;
  }
};

const icons: Record<McpServerState["kind"], string> = { running: "$(pass-filled)", starting: "$(sync~spin)", stopped: "$(circle-outline)", failed: "$(error)" };

/** Wisp: MCP Servers: each server's state, with Start, Stop, Restart and Show Output. */
export function registerMcpCommands(servers: McpServers, output: Logger, log: Logger): vscode.Disposable {
  return registerWispCommand(
    "wisp.mcp.showServers",
    async () => {
      const list = await servers.list();
      if (list.length === 0) {
        const open = await vscode.window.showInformationMessage("No MCP servers are configured: add them to .vscode/mcp.json or the wisp.mcp.servers setting.", "Open Settings");
        if (open) await vscode.commands.executeCommand("workbench.action.openSettings", "wisp.mcp.servers");
        return;
      }
      const picked = await vscode.window.showQuickPick(
        list.map((s) => ({ label: `${icons[s.state.kind]} ${s.entry.name}`, description: `${stateText(s.state)} · ${s.entry.source === "workspace" ? ".vscode/mcp.json" : "wisp.mcp.servers"}`, detail: s.runs, name: s.entry.name })),
        { title: "Wisp: MCP Servers", placeHolder: "A server to start, stop, restart or see the output of" },
      );
      if (!picked) return;
      const running = servers.state(picked.name).kind === "running";
      const action = await vscode.window.showQuickPick(running ? ["Stop", "Restart", "Show Output"] : ["Start", "Show Output"], { title: `MCP server ${picked.name}` });
      // Choosing Start here, with the command line shown above, is the user's approval.
      const approve = async () => true;
      if (action === "Start") await servers.start(picked.name, approve);
      else if (action === "Stop") await servers.stop(picked.name);
      else if (action === "Restart") await servers.restart(picked.name, approve);
      else if (action === "Show Output") output.show();
    },
    log,
  );
}
