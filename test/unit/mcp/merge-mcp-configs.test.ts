import assert from "node:assert/strict";
import { expandConfig, parseMcpConfig } from "../../../src/core/mcp/mcp-config";
import { mergeMcpConfigs } from "../../../src/core/mcp/merge-mcp-configs";

const folder = (index: number, name: string, servers: Record<string, unknown>, inputs: unknown[] = []) => ({
  folder: index,
  path: `/work/${name}`,
  where: `${name}/.vscode/mcp.json`,
  config: parseMcpConfig({ servers, inputs }, "workspace", `${name}/.vscode/mcp.json`),
});
const notes = { command: "node", args: ["${workspaceFolder}/notes.mjs"] };

describe("MCP servers of the user's setting and of each folder's .vscode/mcp.json", () => {
  it("each folder's servers are found, with ${workspaceFolder} the folder holding the file", () => {
    const merged = mergeMcpConfigs(parseMcpConfig(undefined, "user", "wisp.mcp.servers"), [folder(0, "alpha", { notes }), folder(1, "beta", { tracker: notes })], ["alpha", "beta"]);
    assert.deepEqual(merged.servers.map((s) => [s.name, s.workspaceFolder]), [["notes", "/work/alpha"], ["tracker", "/work/beta"]]);
    const expanded = expandConfig(merged.servers[1]!.config, { workspaceFolder: merged.servers[1]!.workspaceFolder, env: {}, inputs: new Map() });
    assert.deepEqual(expanded.type === "stdio" && expanded.args, ["/work/beta/notes.mjs"]);
    assert.deepEqual(merged.problems, []);
  });

  it("a name two folders define is the first folder's; the other's is FOLDER:NAME, and the output says so", () => {
    const merged = mergeMcpConfigs(parseMcpConfig(undefined, "user", "wisp.mcp.servers"), [folder(0, "alpha", { notes }), folder(1, "beta", { notes })], ["alpha", "beta"]);
    assert.deepEqual(merged.servers.map((s) => [s.name, s.workspaceFolder]), [["notes", "/work/alpha"], ["beta:notes", "/work/beta"]]);
    assert.deepEqual(merged.problems, ['beta/.vscode/mcp.json: server "notes" is also defined in alpha/.vscode/mcp.json: this one is "beta:notes".']);
  });

  it("a folder's server wins a name the user's setting also defines (the user's come first otherwise); inputs keep their folder", () => {
    const user = parseMcpConfig({ servers: { notes: { command: "mine" }, own: { command: "own" } }, inputs: [{ id: "token" }] }, "user", "wisp.mcp.servers");
    const merged = mergeMcpConfigs(user, [folder(0, "alpha", {}), folder(1, "beta", { notes }, [{ id: "token", description: "Beta's token" }])], ["alpha", "beta"]);
    assert.deepEqual(merged.servers.map((s) => [s.name, s.source]), [["own", "user"], ["notes", "workspace"]]);
    assert.deepEqual(merged.inputs.map((i) => [i.id, i.workspaceFolder]), [["token", undefined], ["token", "/work/beta"]]);
  });

  it("one folder: as before, its servers after the user's", () => {
    const user = parseMcpConfig({ servers: { a: { command: "a" } } }, "user", "wisp.mcp.servers");
    const merged = mergeMcpConfigs(user, [folder(0, "alpha", { b: notes })], ["alpha"]);
    assert.deepEqual(merged.servers.map((s) => s.name), ["a", "b"]);
  });
});
