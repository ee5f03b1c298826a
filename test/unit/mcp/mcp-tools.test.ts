import assert from "node:assert/strict";
import { offeredTools, resultText, type ServerTool } from "../../../src/core/mcp/mcp-tools";

const tool = (server: string, name: string): ServerTool => ({ server, name, inputSchema: { type: "object", properties: { q: { type: "string" } } } });

describe("MCP tools for the model", () => {
  it("names tools mcp_<server>_<tool> with only [a-zA-Z0-9_-], at most 64 characters, collisions resolved", () => {
    const { offered } = offeredTools([tool("git hub", "search.issues"), tool("git-hub", "search/issues"), tool("x".repeat(40), "y".repeat(40)), tool("x".repeat(40), "y".repeat(41)), tool("a", "read_file")], 128, new Set(["read_file"]));
    const names = offered.map((t) => t.name);
    assert.deepEqual(names.slice(0, 2), ["mcp_git_hub_search_issues", "mcp_git-hub_search_issues"]);
    assert.ok(names.every((n) => /^[a-zA-Z0-9_-]{1,64}$/.test(n)), names.join());
    assert.equal(new Set(names).size, names.length, "every name is unique");
    assert.equal(names[2]!.length, 64);
    assert.equal(names[3], `${names[2]!.slice(0, 62)}_2`);
    assert.equal(names[4], "mcp_a_read_file");
    assert.deepEqual([offered[0]!.server, offered[0]!.tool], ["git hub", "search.issues"]);
  });

  it("offers at most maxTools and names the ones left out", () => {
    const { offered, leftOut } = offeredTools([tool("a", "one"), tool("a", "two"), tool("b", "three")], 2);
    assert.deepEqual(offered.map((t) => t.name), ["mcp_a_one", "mcp_a_two"]);
    assert.deepEqual(leftOut, ["b/three"]);
  });

  it("gives each tool its schema as an object schema, without $schema", () => {
    const { offered } = offeredTools([{ server: "s", name: "t", description: "Does t.", inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "number" } }, required: ["a"] } }, { server: "s", name: "bare", inputSchema: {} }], 10);
    assert.deepEqual(offered[0]!.chatTool, { type: "function", function: { name: "mcp_s_t", description: 'Does t. (MCP server "s")', parameters: { type: "object", properties: { a: { type: "number" } }, required: ["a"] } } });
    assert.deepEqual(offered[1]!.chatTool.function.parameters, { type: "object", properties: {} });
  });

  it("turns results into text: images, audio and resources described with their type and size", () => {
    const text = resultText([
      { type: "text", text: "found 2 issues" },
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio", data: "AAAA", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "hello" } },
      { type: "resource", resource: { uri: "file:///b.bin", mimeType: "application/octet-stream", blob: "AAAAAA==" } },
      { type: "resource_link", uri: "file:///c.md", name: "c" },
    ]);
    assert.equal(
      text,
      [
        "found 2 issues",
        "[image: image/png, 8 bytes]",
        "[audio: audio/wav, 3 bytes]",
        "[resource: file:///a.txt, text/plain, 5 characters of text]\nhello",
        "[resource: file:///b.bin, application/octet-stream, 4 bytes]",
        "[resource link: file:///c.md (c)]",
      ].join("\n"),
    );
    assert.equal(resultText([], { total: 3 }), '{"total":3}');
  });
});
