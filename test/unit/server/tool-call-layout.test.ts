import assert from "node:assert/strict";
import { gbnfLiteral, grammarSchema, scopeRules, toolCallGrammar } from "../../../src/server/engines/text/tool-call-grammar";
import { callMarker, CallStream, parseCall, type CallDelta } from "../../../src/server/engines/text/tool-call-layout";

const TAGGED = { prefix: '<tool_call>\n{"name": "', paramsPrefix: '", "arguments": ', suffix: "}\n</tool_call>" };
const GENERIC = { prefix: "||call: ", paramsPrefix: "(", suffix: ")" };
const NAMES = ["get", "get_time"];

describe("tool call layout", () => {
  it("the call marker is the prefix's first line", () => {
    assert.equal(callMarker(TAGGED), "<tool_call>");
    assert.equal(callMarker(GENERIC), "||call:");
  });

  it("reads a call back, the longer of two names that share a start", () => {
    const text = '<tool_call>\n{"name": "get_time", "arguments": {"zone": "UTC"}}\n</tool_call>';
    assert.deepEqual(parseCall(TAGGED, NAMES, text), { name: "get_time", arguments: '{"zone": "UTC"}' });
    assert.deepEqual(parseCall(GENERIC, NAMES, '||call: get({"a": 1})'), { name: "get", arguments: '{"a": 1}' });
    assert.equal(parseCall(TAGGED, NAMES, "plain text"), undefined);
  });

  it("a call cut short keeps its arguments as far as they go", () => {
    assert.deepEqual(parseCall(TAGGED, NAMES, '<tool_call>\n{"name": "get", "arguments": {"a": '), { name: "get", arguments: '{"a": ' });
  });

  it("streams the name once complete, then argument pieces that join to the arguments", () => {
    const text = '<tool_call>\n{"name": "get_time", "arguments": {"zone": "CET", "exact": true}}\n</tool_call>';
    for (const size of [1, 3, 7, 40]) {
      const stream = new CallStream(TAGGED, NAMES);
      const deltas: CallDelta[] = [];
      for (let at = 0; at < text.length; at += size) {
        const delta = stream.push(text.slice(at, at + size));
        if (delta) deltas.push(delta);
      }
      const last = stream.end();
      if (last) deltas.push(last);
      assert.equal(deltas[0]!.name, "get_time", `pieces of ${size}`);
      assert.ok(deltas.slice(1).every((d) => d.name === undefined));
      assert.equal(deltas.map((d) => d.arguments ?? "").join(""), '{"zone": "CET", "exact": true}');
    }
  });
});

describe("tool call grammar", () => {
  it("reads anyOf as oneOf, at any depth, leaving the schema given alone", () => {
    const schema = { type: "object", properties: { a: { anyOf: [{ type: "string" }, { type: "array", items: { anyOf: [{ const: 1 }] } }] } } };
    const copy = structuredClone(schema);
    assert.deepEqual(grammarSchema(schema), { type: "object", properties: { a: { oneOf: [{ type: "string" }, { type: "array", items: { oneOf: [{ const: 1 }] } }] } } });
    assert.deepEqual(schema, copy);
  });

  it("merges allOf into the schema around it", () => {
    const schema = { type: "object", allOf: [{ properties: { a: { type: "string" } }, required: ["a"] }, { properties: { b: { allOf: [{ type: "integer" }] } }, required: ["b"] }] };
    assert.deepEqual(grammarSchema(schema), { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } }, required: ["a", "b"] });
  });

  it("rewrites anyOf and allOf only where they are keywords, not property names or data", () => {
    const schema = {
      type: "object",
      properties: { allOf: { type: "string" }, anyOf: { type: "integer" }, c: { const: { anyOf: 1 }, default: { allOf: 2 } } },
      required: ["allOf", "anyOf"],
      $defs: { anyOf: { anyOf: [{ type: "null" }] } },
    };
    assert.deepEqual(grammarSchema(schema), {
      type: "object",
      properties: { allOf: { type: "string" }, anyOf: { type: "integer" }, c: { const: { anyOf: 1 }, default: { allOf: 2 } } },
      required: ["allOf", "anyOf"],
      $defs: { anyOf: { oneOf: [{ type: "null" }] } },
    });
  });

  it("escapes literals for GBNF", () => {
    assert.equal(gbnfLiteral('a"b\\c\n\t\u0001'), '"a\\"b\\\\c\\n\\t\\x01"');
  });

  it("renames rules outside literals and character classes, and drops the JSON grammar's trailing newlines", () => {
    const gbnf = 'root ::= "{" rule0 "root" [a-z] "}" "\\n\\n\\n\\n" [\\n]*\nrule0 ::= "\\"x\\"" | rule0';
    assert.equal(scopeRules(gbnf, "t1-"), 't1-root ::= "{" t1-rule0 "root" [a-z] "}"\nt1-rule0 ::= "\\"x\\"" | t1-rule0');
  });

  it("one call among the tools, each with its own argument rules", () => {
    const grammar = toolCallGrammar(GENERIC, [
      { name: "a", argumentsGbnf: 'root ::= "{}"' },
      { name: "b", argumentsGbnf: 'root ::= x\nx ::= "1"' },
    ]);
    assert.equal(grammar, ['root ::= call0 | call1', 'call0 ::= "||call: a(" t0-root ")"', 't0-root ::= "{}"', 'call1 ::= "||call: b(" t1-root ")"', "t1-root ::= t1-x", 't1-x ::= "1"'].join("\n"));
  });
});
