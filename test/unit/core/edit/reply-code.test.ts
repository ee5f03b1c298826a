import assert from "node:assert/strict";
import { codeAsGiven, codeOfReply, cutReplyReason, hasCode } from "../../../../src/core/edit/reply-code";
import { indentStyleOf, reindentLines } from "../../../../src/core/edit/reindent";

describe("core/edit: code from a reply, re-indented", () => {
  it("takes the first fenced block and drops the prose around it", () => {
    const reply = "Here is the updated function:\n\n```ts\nconst a = 1;\nconst b = 2;\n```\n\nThis renames nothing.\n";
    assert.deepEqual(codeOfReply(reply, true), ["const a = 1;", "const b = 2;"]);
  });

  it("streams only complete lines, and nothing of a fence before its line ends", () => {
    assert.deepEqual(codeOfReply("```py", false), []);
    assert.deepEqual(codeOfReply("```python\ndef f():\n    ret", false), ["def f():"]);
    assert.deepEqual(codeOfReply("```python\ndef f():\n    return 1\n``", false), ["def f():", "    return 1"]);
    assert.deepEqual(codeOfReply("```python\ndef f():\n    return 1\n```", true), ["def f():", "    return 1"]);
  });

  it("waits while a reply opens with prose, and treats a reply without fence or prose as code", () => {
    assert.deepEqual(codeOfReply("Sure, here is the code:\n", false), []);
    assert.deepEqual(codeOfReply("Here you go:\n\n", false), []);
    assert.deepEqual(codeOfReply("That renames the variable.\n", false), []);
    assert.deepEqual(codeOfReply("Result:\nx = 1\n", false), ["Result:", "x = 1"], "one capitalised word and a colon may be code (a label)");
    assert.deepEqual(codeOfReply("x = 1\ny = 2", false), ["x = 1"]);
    assert.deepEqual(codeOfReply("Here's the fix:\nx = 1\ny = 2\n", true), ["x = 1", "y = 2"]);
    assert.deepEqual(codeOfReply("x = 1\r\ny = 2\r\n", true), ["x = 1", "y = 2"]);
  });

  it("keeps a longer fence's inner backticks and stops at its own closing fence", () => {
    assert.deepEqual(codeOfReply("````md\n```js\nx\n```\n````\n", true), ["```js", "x", "```"]);
  });

  it("says when a reply has no code", () => {
    assert.equal(hasCode(codeOfReply("I cannot change this code.", true)), false);
    assert.equal(hasCode(codeOfReply("Sure.\n", true)), false);
    assert.equal(hasCode(codeOfReply("```\n\n```\n", true)), false);
  });

  it("leaves out a reasoning model's thinking: the code it quotes or drafts there is not the edit", () => {
    const reply = "<think>\nThe old code:\n```js\nold();\n```\nI'll rename it.\n</think>\n```js\nnewer();\n```\n";
    assert.deepEqual(codeOfReply(reply, true), ["newer();"]);
    assert.deepEqual(codeOfReply("<think>\nrename it\n</think>\n\nnewer();\n", true), ["newer();"]);
    // While it thinks (and when it never stops: max_tokens spent), there is no code yet.
    assert.deepEqual(codeOfReply("<think>\nThe old code:\n```js\nold();\n", false), []);
    assert.deepEqual(codeOfReply("<think>\nThe old code:\n```js\nold();\n", true), []);
  });

  it("a reply the server cut (max tokens, content filter) before its code was whole is no edit; cut after the fence it is", () => {
    const cut = "```ts\nfunction total(items) {\n  let sum = 0;\n";
    assert.match(cutReplyReason(cut, "length") ?? "", /cut off at the max tokens limit \(wisp\.chat\.maxTokens\).*nothing is proposed/);
    assert.match(cutReplyReason(cut, "content_filter") ?? "", /cut off by the server's content filter/);
    assert.match(cutReplyReason("function total(items) {\n  let sum", "length") ?? "", /cut off/, "no fence: nothing says the code ended");
    assert.match(cutReplyReason("<think>\nThe loop should\n", "length") ?? "", /cut off/, "it spent the tokens thinking");
    assert.equal(cutReplyReason("```ts\nlet sum = 0;\n```\nThis renames the varia", "length"), undefined);
    assert.equal(cutReplyReason(cut, "stop"), undefined);
    assert.equal(cutReplyReason(cut, undefined), undefined);
  });

  it("takes ready code (chat's Apply) line for line: no prose dropped, no fence read", () => {
    const code = "This function adds the prices.\n```\ntotal(1, 2)\n```\nNote: in cents.\n";
    assert.deepEqual(codeAsGiven(code, true), ["This function adds the prices.", "```", "total(1, 2)", "```", "Note: in cents."]);
    assert.deepEqual(codeAsGiven("a\r\n\r\nb", true), ["a", "", "b"], "a blank line inside stays; no final line break");
    assert.deepEqual(codeAsGiven("a\n\n", true), ["a", ""], "only the last line break ends the code");
    assert.deepEqual(codeAsGiven("a\nb", false), ["a"], "while it streams, only complete lines");
  });

  it("re-indents to the block's indentation, keeping relative depth", () => {
    const style = indentStyleOf(["    if (x) {", "      y();", "    }"], { useTabs: false, tabSize: 4 });
    assert.deepEqual(reindentLines(["if (x) {", "  z();", "", "}"], style), ["    if (x) {", "      z();", "", "    }"]);
    assert.deepEqual(reindentLines(["        if (x) {", "          z();", "        }"], style), ["    if (x) {", "      z();", "    }"]);
  });

  it("writes tabs for a block indented with tabs, and dedents lines shallower than the first", () => {
    const style = indentStyleOf(["\t\tcall();"], { useTabs: true, tabSize: 4 });
    assert.deepEqual(reindentLines(["    call();", "        more();", "end"], style), ["\t\tcall();", "\t\t\tmore();", "\tend"]);
  });

  it("gives a reply indented with two spaces (or four, at tab size 8) a tab for each of its levels in a block indented with tabs", () => {
    const reply = ["if (x) {", "  y();", "  if (z) {", "    w();", "  }", "}"];
    const tabbed = ["\tif (x) {", "\t\ty();", "\t\tif (z) {", "\t\t\tw();", "\t\t}", "\t}"];
    assert.deepEqual(reindentLines(reply, indentStyleOf(["\tif (a) {"], { useTabs: true, tabSize: 4 })), tabbed);
    const four = reply.map((line) => line.replace(/^ +/, (lead) => lead.replace(/ {2}/g, "    ")));
    assert.deepEqual(reindentLines(four, indentStyleOf(["\tif (a) {"], { useTabs: true, tabSize: 8 })), tabbed);
    // A reply that starts deeper than it ends: its dedent is a level too; alignment stays spaces.
    assert.deepEqual(reindentLines(["    a(1,", "      2);", "  }", "  f(1,", "    2);"], indentStyleOf(["\t\tb();"], { useTabs: true, tabSize: 4 })), ["\t\ta(1,", "\t\t\t2);", "\t}", "\tf(1,", "\t\t2);"]);
    assert.deepEqual(reindentLines(["a(1,", "     2);"], indentStyleOf(["\tb();"], { useTabs: true, tabSize: 4 })), ["\ta(1,", "\t\t 2);"]);
  });
});
