import assert from "node:assert/strict";
import { formatMatches, grepText, lineMatcher, type GrepMatch, type LineMatcher } from "../../../src/core/agent/grep-lines";
import { wellFormed } from "../../harness/well-formed";

const text = ["export function total(items) {", "  return items.reduce((sum, i) => sum + i.price * (i.qty ?? 1), 0);", "}", "// TOTAL: see total()", ""].join("\n");

function grep(query: string, isRegexp = false, first = 1): GrepMatch[] {
  const matcher = lineMatcher({ query, isRegexp }) as LineMatcher;
  const found: GrepMatch[] = [];
  grepText("src/cart.js", text, first, matcher, found, 200);
  return found;
}

describe("grep_search matching", () => {
  it("a plain query matches case-insensitively, its regex characters taken literally", () => {
    assert.deepEqual(grep("total").map((m) => m.line), [1, 4]);
    assert.deepEqual(grep("(i.qty ?? 1)").map((m) => m.line), [2]);
    assert.deepEqual(grep("i.qty ?? 2"), []);
  });

  it("a regular expression is tested per line: ^ and $ anchor at line starts and ends", () => {
    assert.deepEqual(grep("^\\s*return\\b", true).map((m) => [m.line, m.text]), [[2, "  return items.reduce((sum, i) => sum + i.price * (i.qty ?? 1), 0);"]]);
    assert.deepEqual(grep("\\)$", true).map((m) => m.line), [4]);
    assert.deepEqual(grep("total\\(", true, 10).map((m) => m.line), [10, 13], "lines count from the piece's first line");
  });

  it("a bad regular expression or an empty query is an error for the model", () => {
    assert.match((lineMatcher({ query: "(", isRegexp: true }) as { error: string }).error, /^The query is not a valid regular expression: /);
    assert.deepEqual(lineMatcher({ query: "", isRegexp: false }), { error: "The query is empty." });
  });

  it("stops at the limit and says so; names the sensitive files it skipped", () => {
    const matcher = lineMatcher({ query: "i", isRegexp: false }) as LineMatcher;
    const found: GrepMatch[] = [];
    grepText("a.js", text, 1, matcher, found, 2);
    assert.equal(found.length, 2);
    assert.match(formatMatches(found, 2, 1), /^a\.js:1: export function total\(items\) \{\na\.js:2: .*\n\[Only the first 2 matches are shown: narrow the query or use include\.\]\n\[1 sensitive file\(s\) not searched/);
    assert.equal(formatMatches([], 200, 0), "No matches.");
  });

  it("names the files too large to search, so that no matches among the rest is not taken for none at all", () => {
    const logs = Array.from({ length: 7 }, (_, i) => `logs/day${i + 1}.log`);
    assert.equal(formatMatches([], 200, 0, logs.slice(0, 1)), "No matches.\n[1 file(s) over 2 MB not searched: logs/day1.log. Search it with a command (grep) instead.]");
    assert.match(formatMatches([], 200, 1, logs), /^No matches\.\n\[1 sensitive file\(s\) not searched.*\]\n\[7 file\(s\) over 2 MB not searched: logs\/day1\.log, .*logs\/day5\.log and 2 more\. Search them with a command \(grep\) instead\.\]$/);
  });

  it("cuts a long matching line without leaving half of an emoji for the model (a lone surrogate that servers refuse)", () => {
    const line = `const banner = "!${"🎉".repeat(200)}";`;
    const found: GrepMatch[] = [];
    grepText("src/banner.ts", line, 1, lineMatcher({ query: "banner", isRegexp: false }) as LineMatcher, found, 200);
    assert.equal(found.length, 1);
    assert.ok(wellFormed(found[0]!.text), JSON.stringify(found[0]!.text.slice(-4)));
    assert.ok(found[0]!.text.endsWith("🎉…"));
  });
});
