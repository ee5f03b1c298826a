import assert from "node:assert/strict";
import { describeServer, expandConfig, inputIds, parseMcpConfig } from "../../../src/core/mcp/mcp-config";

describe("MCP configuration (VS Code's mcp.json format)", () => {
  it("reads stdio and http servers, a type inferred from command or url, and inputs", () => {
    const parsed = parseMcpConfig(
      {
        inputs: [{ type: "promptString", id: "token", description: "GitHub token", password: true }],
        servers: {
          notes: { type: "stdio", command: "node", args: ["server.js", "--db", "${workspaceFolder}/notes.db"], env: { TOKEN: "${input:token}" }, cwd: "${workspaceFolder}" },
          web: { type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${input:token}" } },
          inferred: { command: "uvx", args: ["mcp-server-git"] },
          old: { type: "sse", url: "http://127.0.0.1:9000/sse" },
        },
      },
      "workspace",
      ".vscode/mcp.json",
    );
    assert.deepEqual(parsed.problems, []);
    assert.deepEqual(parsed.servers.map((s) => [s.name, s.config.type, s.source]), [["notes", "stdio", "workspace"], ["web", "http", "workspace"], ["inferred", "stdio", "workspace"], ["old", "sse", "workspace"]]);
    assert.deepEqual(parsed.inputs, [{ id: "token", description: "GitHub token", password: true }]);
  });

  it("says what is wrong with an entry, and keeps the others", () => {
    const parsed = parseMcpConfig({ servers: { a: { type: "stdio" }, b: { type: "websocket", url: "ws://x" }, c: { command: "x", args: "not a list" }, d: { url: "http://ok" }, e: 3 } }, "user", "wisp.mcp.servers");
    assert.deepEqual(parsed.servers.map((s) => s.name), ["d"]);
    assert.deepEqual(parsed.problems, [
      'wisp.mcp.servers: server "a": a stdio server needs a "command"',
      'wisp.mcp.servers: server "b": unknown "type" "websocket": use "stdio" or "http"',
      'wisp.mcp.servers: server "c": "args" must be a list of strings',
      'wisp.mcp.servers: server "e": expected an object',
    ]);
    assert.deepEqual(parseMcpConfig([1], "user", "x").problems, ['x: expected an object with "servers".']);
    assert.deepEqual(parseMcpConfig(undefined, "user", "x"), { servers: [], inputs: [], problems: [] });
  });

  it("expands ${workspaceFolder}, ${env:…} and ${input:…} everywhere, and names what is missing", () => {
    const [notes] = parseMcpConfig({ servers: { notes: { command: "${workspaceFolder}/bin/notes", args: ["--user", "${env:USER_NAME}", "--key=${input:key}"], env: { HOME_DIR: "${env:NOPE}" } } } }, "user", "x").servers;
    assert.deepEqual(inputIds(notes!.config), ["key"]);
    const expanded = expandConfig(notes!.config, { workspaceFolder: "/w", env: { USER_NAME: "ada" }, inputs: new Map([["key", "s3cret"]]) });
    assert.deepEqual(expanded, { type: "stdio", command: "/w/bin/notes", args: ["--user", "ada", "--key=s3cret"], env: { HOME_DIR: "" } });
    assert.throws(() => expandConfig(notes!.config, { workspaceFolder: "/w", env: {}, inputs: new Map() }), /no value for \$\{input:key\}/);
    assert.throws(() => expandConfig(notes!.config, { workspaceFolder: undefined, env: {}, inputs: new Map([["key", "k"]]) }), /no folder is open/);
  });

  it("expands ${workspaceFolder:NAME}, ${workspaceFolderBasename}, ${userHome} and ${pathSeparator} as VS Code does, and leaves other ${…} as written", () => {
    const [tool] = parseMcpConfig({ servers: { tool: { command: "${userHome}${/}bin${pathSeparator}tool", args: ["${workspaceFolder:beta}/db", "${workspaceFolderBasename}", "${HOME}", "${command:pick}"] } } }, "user", "x").servers;
    const values = { workspaceFolder: "/w/alpha/", folders: new Map([["alpha", "/w/alpha"], ["beta", "/w/beta"]]), userHome: "/home/ada", env: {}, inputs: new Map<string, string>() };
    assert.deepEqual(expandConfig(tool!.config, values), { type: "stdio", command: "/home/ada/bin/tool", args: ["/w/beta/db", "alpha", "${HOME}", "${command:pick}"], env: {} });
    const [other] = parseMcpConfig({ servers: { other: { command: "${workspaceFolder:gamma}/x" } } }, "user", "x").servers;
    assert.throws(() => expandConfig(other!.config, values), /\$\{workspaceFolder:gamma\} names no open folder \(open: alpha, beta\)/);
    assert.throws(() => expandConfig(tool!.config, { ...values, workspaceFolder: undefined }), /\$\{workspaceFolderBasename\} is used, but no folder is open/);
  });

  it("shows the command line a workspace server would run, quoted where needed", () => {
    assert.equal(describeServer({ type: "stdio", command: "node", args: ["server.js", "--name", "my notes"], env: {} }), 'node server.js --name "my notes"');
    assert.equal(describeServer({ type: "http", url: "https://x/mcp", headers: {} }), "https://x/mcp");
  });

  it("shows what else a server is started with: its environment and folder, the headers it sends and the variables they take, secrets masked", () => {
    const stdio = describeServer({ type: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "."], env: { NODE_OPTIONS: "--require ./.vscode/hook.cjs", TOKEN: "${input:token}", API_KEY: "sk-live-0123456789abcdef" }, cwd: "${workspaceFolder}/tools" });
    assert.equal(stdio, 'NODE_OPTIONS="--require ./.vscode/hook.cjs" TOKEN="${input:token}" API_KEY=[masked] npx -y @modelcontextprotocol/server-filesystem . (in ${workspaceFolder}/tools)');
    const http = describeServer({ type: "http", url: "https://mcp.example.com/mcp", headers: { Authorization: "Bearer ${env:GITHUB_TOKEN}", "X-Team": "web" } });
    assert.equal(http, "https://mcp.example.com/mcp, sending headers Authorization (from ${env:GITHUB_TOKEN}), X-Team");
  });
});
