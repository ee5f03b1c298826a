import assert from "node:assert/strict";
import { Ajv } from "ajv";
import type { ChatTool } from "../../../src/core/api/chat";
import { ToolArgValidator, ToolSchemaCompiler, validateToolArgs } from "../../../src/core/agent/tool-args";
import { agentTools } from "../../../src/core/agent/tool-schemas";

const validator = new ToolArgValidator(agentTools);
const errorOf = (name: string, args: string) => {
  const result = validator.validate(name, args);
  assert.equal(result.ok, false, `expected an error for ${name} ${args}`);
  return (result as { error: string }).error;
};

describe("core/agent: tool schemas and argument validation", () => {
  it("declares the 9 tools with exactly their parameters, strict objects, valid JSON schemas", () => {
    const shape = Object.fromEntries(
      agentTools.map((t) => {
        const p = t.function.parameters as { properties: Record<string, unknown>; required: string[]; additionalProperties: boolean };
        assert.equal(p.additionalProperties, false, t.function.name);
        assert.ok(t.function.description.length > 40, t.function.name);
        assert.ok(new Ajv({ strict: true }).validateSchema(p), t.function.name);
        return [t.function.name, { params: Object.keys(p.properties), required: p.required }];
      }),
    );
    assert.deepEqual(shape, {
      read_file: { params: ["path", "start_line", "end_line"], required: ["path"] },
      list_dir: { params: ["path"], required: ["path"] },
      file_search: { params: ["query"], required: ["query"] },
      grep_search: { params: ["query", "is_regexp", "include"], required: ["query"] },
      get_errors: { params: ["paths"], required: [] },
      create_file: { params: ["path", "content"], required: ["path", "content"] },
      replace_string_in_file: { params: ["path", "old_string", "new_string"], required: ["path", "old_string", "new_string"] },
      run_in_terminal: { params: ["command", "explanation"], required: ["command"] },
      manage_todo_list: { params: ["todoList", "operation"], required: [] },
    });
  });

  it("accepts valid arguments as they were sent", () => {
    assert.deepEqual(validator.validate("read_file", '{"path":"src/cart.js","start_line":3,"end_line":9}'), { ok: true, args: { path: "src/cart.js", start_line: 3, end_line: 9 } });
    assert.deepEqual(validator.validate("get_errors", ""), { ok: true, args: {} }, "empty arguments are {}");
    assert.deepEqual(validator.validate("get_errors", '{"paths":["a.ts"]}'), { ok: true, args: { paths: ["a.ts"] } });
    assert.deepEqual(validateToolArgs("run_in_terminal", '{"command":"npm test","explanation":"run the tests"}', agentTools), { ok: true, args: { command: "npm test", explanation: "run the tests" } });
  });

  it("names an unknown tool and lists the known ones", () => {
    assert.equal(errorOf("delete_file", "{}"), "There is no tool named \"delete_file\". The tools are: read_file, list_dir, file_search, grep_search, get_errors, create_file, replace_string_in_file, run_in_terminal, manage_todo_list.");
  });

  it("a tool of an MCP server that stopped mid-task: says the server went away, not that no such tool ever was", () => {
    const afterCrash = new ToolArgValidator(agentTools, new ToolSchemaCompiler(), new Map([["mcp_github_list_issues", "github"]]));
    const result = afterCrash.validate("mcp_github_list_issues", "{}");
    assert.ok(!result.ok);
    assert.match(result.error, /^The tool "mcp_github_list_issues" is no longer available: its MCP server "github" stopped or no longer offers it\. Go on without it, or tell the user\. The tools are: read_file, /);
    assert.match((afterCrash.validate("delete_file", "{}") as { error: string }).error, /^There is no tool named "delete_file"/);
  });

  it("says when the arguments are not JSON, with the parse error", () => {
    assert.match(errorOf("read_file", '{"path": "a.js",}'), /^The arguments of read_file are not valid JSON \(.+\): send one JSON object with the parameters\.$/);
    assert.equal(errorOf("read_file", '["a.js"]'), "The arguments of read_file must be a JSON object with the parameters, not an array.");
    assert.equal(errorOf("read_file", '"a.js"'), "The arguments of read_file must be a JSON object with the parameters, not a string.");
    assert.equal(errorOf("read_file", "null"), "The arguments of read_file must be a JSON object with the parameters, not null.");
  });

  it("names the missing parameter and its type", () => {
    assert.equal(errorOf("read_file", "{}"), 'Invalid arguments for read_file: "path" is required (a string).');
    assert.equal(errorOf("replace_string_in_file", '{"path":"a"}'), 'Invalid arguments for replace_string_in_file: "old_string" is required (a string); "new_string" is required (a string).');
  });

  it("names an unknown parameter and lists the real ones", () => {
    assert.equal(errorOf("read_file", '{"path":"a","line":3}'), 'Invalid arguments for read_file: there is no parameter "line" (the parameters are path, start_line, end_line).');
  });

  it("names a wrongly typed parameter, what was expected and what was sent", () => {
    assert.equal(errorOf("read_file", '{"path":"a","start_line":"3"}'), 'Invalid arguments for read_file: "start_line" must be an integer, not a string.');
    assert.equal(errorOf("read_file", '{"path":"a","start_line":0}'), 'Invalid arguments for read_file: "start_line" must be >= 1.');
    assert.equal(errorOf("get_errors", '{"paths":["a", 2]}'), 'Invalid arguments for get_errors: "paths[1]" must be a string, not a number.');
    assert.equal(errorOf("grep_search", '{"query":"x","is_regexp":"yes"}'), 'Invalid arguments for grep_search: "is_regexp" must be a boolean, not a string.');
  });

  it("keeps a long list of problems to one line", () => {
    const error = errorOf("read_file", '{"a":1,"b":2,"c":3,"d":4,"e":5}');
    assert.match(error, /and 3 more\.$/);
    assert.ok(!error.includes("\n"));
  });

  it("checks other tool lists (MCP tools) and survives a schema that does not compile", () => {
    const tools: ChatTool[] = [
      { type: "function", function: { name: "lookup", description: "d", parameters: { type: "object", properties: { id: { type: "string", enum: ["a", "b"] } }, required: ["id"] } } },
      { type: "function", function: { name: "broken", description: "d", parameters: { type: "object", properties: { x: { type: "no-such-type" } } } } },
    ];
    const own = new ToolArgValidator(tools);
    assert.equal((own.validate("lookup", '{"id":"c"}') as { error: string }).error, 'Invalid arguments for lookup: "id" must be one of "a", "b".');
    assert.deepEqual(own.validate("broken", '{"x":1}'), { ok: true, args: { x: 1 } });
    assert.equal(own.validate("broken", "[]").ok, false);
  });

  it("a compiler kept across tasks compiles each schema once, and its validators check as a fresh one does", () => {
    const compiler = new ToolSchemaCompiler();
    const [first, second] = [new ToolArgValidator(agentTools, compiler), new ToolArgValidator(agentTools, compiler)];
    const read = agentTools.find((t) => t.function.name === "read_file")!;
    assert.equal(compiler.check(read.function.parameters), compiler.check(structuredClone(read.function.parameters)), "the same schema's text gives the same compiled check");
    for (const [args, ok] of [['{"path":"a.ts"}', true], ['{"path":3}', false]] as const) {
      assert.deepEqual(second.validate("read_file", args), first.validate("read_file", args));
      assert.equal(second.validate("read_file", args).ok, ok);
    }
  });
});
