import assert from "node:assert/strict";
import { findingsSchema, parseFindings, ReviewOutputError } from "../../../../src/core/review/findings";

describe("review findings from the model", () => {
  it("keeps the findings that fit the schema and counts the others", () => {
    const answer = JSON.stringify({
      findings: [
        { file: "src/cart.ts", line: 3, end_line: 3, severity: "error", comment: "Quantities are ignored.", fix: "  return sum + item.price * item.qty;" },
        { file: "src/cart.ts", line: 5, end_line: 6, severity: "info", comment: "Name it.", fix: "" },
        { file: "src/cart.ts", line: "7", end_line: 7, severity: "warning", comment: "x", fix: "" },
        { file: "src/cart.ts", line: 9, end_line: 8, severity: "warning", comment: "x", fix: "" },
        { file: "src/cart.ts", line: 9, end_line: 9, severity: "critical", comment: "x", fix: "" },
        { file: "", line: 9, end_line: 9, severity: "info", comment: "x", fix: "" },
        "not an object",
      ],
    });
    const { findings, malformed } = parseFindings(answer);
    assert.deepEqual(findings, [
      { file: "src/cart.ts", line: 3, endLine: 3, severity: "error", comment: "Quantities are ignored.", fix: "  return sum + item.price * item.qty;" },
      { file: "src/cart.ts", line: 5, endLine: 6, severity: "info", comment: "Name it." },
    ]);
    assert.equal(malformed, 5);
  });

  it("reads an answer in a json code fence, and end_line left out as line", () => {
    const { findings } = parseFindings('```json\n{"findings": [{"file": "a.py", "line": 2, "severity": "warning", "comment": "c"}]}\n```');
    assert.deepEqual(findings, [{ file: "a.py", line: 2, endLine: 2, severity: "warning", comment: "c" }]);
  });

  it("reads the JSON after a reasoning model's thinking or a sentence, where the server did not apply response_format", () => {
    const json = '{"findings": [{"file": "a.py", "line": 2, "severity": "warning", "comment": "c"}]}';
    const expected = [{ file: "a.py", line: 2, endLine: 2, severity: "warning", comment: "c" }];
    assert.deepEqual(parseFindings(`<think>\nLine 2 reads a.\n</think>\n\n${json}`).findings, expected);
    assert.deepEqual(parseFindings(`<think>\nMaybe {"findings": []}?\n</think>\n\`\`\`json\n${json}\n\`\`\``).findings, expected);
    assert.deepEqual(parseFindings(`Here are the findings:\n\`\`\`json\n${json}\n\`\`\`\nLet me know if you need more.`).findings, expected);
    assert.deepEqual(parseFindings(`Here are the findings:\n${json}`).findings, expected);
    // Never out of its thinking: said so, not 'not JSON (it began: "")'.
    assert.throws(() => parseFindings("<think>\nLine 2 reads a, and"), (e: Error) => e instanceof ReviewOutputError && /still thinking \(its max tokens spent\).*wisp\.chat\.maxTokens/.test(e.message));
  });

  it("an answer that is not JSON, or has no list, is an error", () => {
    assert.throws(() => parseFindings("Looks good to me!"), (e: Error) => e instanceof ReviewOutputError && /not JSON, so no finding is shown \(it began: "Looks good to me!"\)/.test(e.message));
    assert.throws(() => parseFindings('{"issues": []}'), ReviewOutputError);
    assert.throws(() => parseFindings("null"), ReviewOutputError);
  });

  it("an answer not JSON with an emoji at the 80th character shows its start whole, not an escape such as \\ud83d", () => {
    const answer = `${"a".repeat(79)}😀 and then more of the review that goes on`;
    assert.throws(() => parseFindings(answer), (e: Error) => {
      assert.ok(!/\\ud83d/i.test(e.message), e.message);
      assert.match(e.message, new RegExp(`it began: "${"a".repeat(79)}…"`));
      return true;
    });
  });

  it("the schema requires every property (strict structured output)", () => {
    const item = findingsSchema.properties.findings.items;
    assert.deepEqual([...item.required].sort(), Object.keys(item.properties).sort());
  });
});
