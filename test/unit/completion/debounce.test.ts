import assert from "node:assert/strict";
import { cursorContext } from "../../../src/core/completion/cursor-context";
import { AdaptiveDebounce } from "../../../src/core/completion/debounce";
import { FakeClock } from "./fake-clock";
import { inputAt } from "./input-at";

/** A debounce that has seen keys `gapMs` apart. */
function afterRhythm(gapMs: number, keys = 20): AdaptiveDebounce {
  const clock = new FakeClock();
  const debounce = new AdaptiveDebounce(clock);
  for (let i = 0; i < keys; i++) debounce.keystroke(i * gapMs);
  return debounce;
}

describe("adaptive debounce", () => {
  it("between words the wait is a third of the configured one, whatever the rhythm", () => {
    for (const gap of [40, 160, 700]) assert.equal(afterRhythm(gap).delayFor(120, true), 40);
  });

  it("inside a word it outlasts the typing rhythm, up to 2.5 x the configured wait", () => {
    assert.equal(afterRhythm(40).delayFor(120), 120, "never below the configured wait");
    assert.equal(afterRhythm(160).delayFor(120), 200, "1.25 x the usual long gap");
    assert.equal(afterRhythm(700).delayFor(120), 300, "hesitations count, up to the cap");
  });

  it("a debounce of 0 stays 0 between words", () => {
    assert.equal(afterRhythm(160).delayFor(0, true), 0);
  });
});

describe("cursor context: where a pause is likely", () => {
  const cases: Array<[string, boolean]> = [
    ["const total = █", true],
    ["const total =█", true],
    ["items.█", true],
    ["compute(█)", true],
    ["return a;█", true],
    ["function f() {\n  █\n}", true],
    ["█", true],
    ["const tot█", false],
    ["const $el█", false],
    ["let next_index█", false],
    ["const größe█", false],
    ["count2█", false],
  ];
  for (const [doc, expected] of cases) {
    it(`${JSON.stringify(doc)}: ${expected ? "between words" : "inside a word"}`, () => {
      assert.equal(cursorContext(inputAt(doc)).atBoundary, expected);
    });
  }
});
