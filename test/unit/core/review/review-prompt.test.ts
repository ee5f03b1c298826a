import assert from "node:assert/strict";
import { findingsMarkdown, inertMarkdown, reviewMessages, reviewSummary } from "../../../../src/core/review/review-prompt";
import { wellFormed } from "../../../harness/well-formed";

describe("the review's prompt, summary and markdown", () => {
  it("asks for JSON, or for the tool's call", () => {
    assert.match(reviewMessages({ what: "the staged changes", listing: "File: a", asTool: false })[0]!.content, /Answer with JSON only/);
    assert.match(reviewMessages({ what: "x", listing: "y", asTool: true })[0]!.content, /calling report_findings once/);
    assert.equal(reviewMessages({ what: "the staged changes", listing: "File: a", asTool: false })[1]!.content, "Review the staged changes:\n\nFile: a");
  });

  it("counts what was shown and dropped in one line", () => {
    assert.equal(reviewSummary({ placed: [], dropped: { outside: 0, noSuchLine: 0 } }, 0), "No findings to show.");
    const placed = [{}, {}] as never[];
    assert.equal(reviewSummary({ placed, dropped: { outside: 1, noSuchLine: 0 } }, 1), "2 findings shown; 2 dropped (1 outside the reviewed lines, 1 not fitting the schema).");
    assert.equal(reviewSummary({ placed: [{}] as never[], dropped: { outside: 0, noSuchLine: 2 } }, 0), "1 finding shown; 2 dropped (2 at lines that do not exist).");
  });

  it("lists findings for the chat with links to their lines", () => {
    const text = findingsMarkdown("the uncommitted changes", "1 finding shown.", [{ path: "app/src/cart.ts", placed: { finding: { file: "src/cart.ts", line: 3, endLine: 4, severity: "error", comment: "Quantities are ignored. The total is wrong.", fix: "x" }, file: { path: "src/cart.ts", blocks: [] }, original: [], sent: [] } }]);
    assert.ok(text.includes("- **error** [app/src/cart\\.ts:3\\-4](app/src/cart.ts#L3): Quantities are ignored\\. (fix proposed)"), text);
  });

  it("makes a finding's markdown inert: HTML as text, only http(s) links, code kept", () => {
    const hostile = 'Bad <img src=x onerror="alert(1)"> [run](command:workbench.action.terminal.new) ![i](https://x/y.png) [ok](https://example.com) see `a < b && c` and\n```ts\nif (a<b) {}\n```';
    const out = inertMarkdown(hostile);
    assert.ok(!out.includes("<img") && out.includes("&lt;img"), out);
    assert.ok(!out.includes("(command:"), out);
    assert.ok(out.includes("run") && out.includes("[ok](https://example.com)"), out);
    assert.ok(!out.includes("![i]"), out);
    assert.ok(out.includes("`a < b && c`") && out.includes("if (a<b) {}"), out);
    assert.ok(!/command:/i.test(inertMarkdown("visit command:workbench.action.reloadWindow now")));
  });

  it("cuts a long comment's first sentence without leaving half of an emoji in the chat", () => {
    const comment = `${"a".repeat(198)}🚫 is never checked`;
    const text = findingsMarkdown("the uncommitted changes", "1 finding shown.", [{ path: "src/cart.ts", placed: { finding: { file: "src/cart.ts", line: 3, endLine: 3, severity: "warning", comment }, file: { path: "src/cart.ts", blocks: [] }, original: [], sent: [] } }]);
    assert.ok(wellFormed(text), "a lone surrogate in the findings");
    assert.match(text, /: a{198}…$/m);
  });
});
