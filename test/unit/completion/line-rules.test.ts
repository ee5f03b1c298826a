import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { cursorContext, type CursorContext } from "../../../src/core/completion/cursor-context";
import { lineLimit, multilineRules, stayInBlock, stopAtFollowingCode, stopAtRepeats, judgeByRules, type LineRule } from "../../../src/core/completion/line-rules";
import { LineTracker } from "../../../src/core/completion/line-tracker";
import { inputAt } from "./input-at";

interface RuleCase {
  readonly rule: "lineLimit" | "stopAtFollowingCode" | "stopAtRepeats" | "stayInBlock" | "multiline";
  readonly name: string;
  /** The document, the cursor marked by █. */
  readonly doc: string;
  readonly languageId?: string;
  readonly maxLines?: number;
  /** The lines the model writes. */
  readonly lines: readonly string[];
  /** What is said of each line up to the one that ends the suggestion; "pass" leaves it to the rules after. */
  readonly verdicts: readonly string[];
}

const cases = JSON.parse(readFileSync(new URL("../../fixtures/completion/line-rules.json", import.meta.url), "utf8")) as RuleCase[];

const rules: Record<Exclude<RuleCase["rule"], "multiline">, (ctx: CursorContext, maxLines: number) => LineRule> = {
  lineLimit: (_, maxLines) => lineLimit(maxLines),
  stopAtFollowingCode: (ctx) => stopAtFollowingCode(ctx),
  stopAtRepeats: () => stopAtRepeats(),
  stayInBlock: (ctx) => stayInBlock(ctx),
};

/** One rule alone over the lines, the brackets followed through the lines it lets stay. */
function ruleVerdicts(rule: LineRule, ctx: CursorContext, lines: readonly string[]): string[] {
  const tracker = new LineTracker(ctx);
  const said: string[] = [];
  for (const [index, line] of lines.entries()) {
    const judged = tracker.see(line, index);
    const verdict = rule(judged);
    said.push(verdict ?? "pass");
    if (verdict === "drop-and-stop" || verdict === "keep-and-stop") break;
    tracker.keep(judged);
  }
  return said;
}

/** All the rules, composed as the stream and post-processing run them. */
function composedVerdicts(ctx: CursorContext, maxLines: number, lines: readonly string[]): string[] {
  const judge = judgeByRules(ctx, multilineRules(ctx, maxLines));
  const said: string[] = [];
  for (const [index, line] of lines.entries()) {
    const verdict = judge(line, index, "");
    said.push(verdict);
    if (verdict !== "keep") break;
  }
  return said;
}

describe("multi-line stop rules, one at a time (fixtures)", () => {
  for (const c of cases) {
    it(`${c.rule}: ${c.name}`, () => {
      const ctx = cursorContext(inputAt(c.doc, c.languageId ? { languageId: c.languageId } : {}));
      assert.ok(ctx.multiline, "the cursor expects a block");
      const maxLines = c.maxLines ?? 8;
      const said = c.rule === "multiline" ? composedVerdicts(ctx, maxLines, c.lines) : ruleVerdicts(rules[c.rule](ctx, maxLines), ctx, c.lines);
      assert.deepEqual(said, c.verdicts);
    });
  }

  it("covers every rule", () => {
    for (const rule of [...Object.keys(rules), "multiline"]) assert.ok(cases.some((c) => c.rule === rule), rule);
  });
});
