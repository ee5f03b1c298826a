import assert from "node:assert/strict";
import { showFirstLineEarly, type FirstShown } from "../../../src/core/completion/filters";
import { FakeClock } from "./fake-clock";

/** Text deltas on the fake clock: each after its pause; an Error ends the stream with it. */
async function* deltas(clock: FakeClock, pieces: readonly [pauseMs: number, text: string | Error][]): AsyncGenerator<string> {
  for (const [pauseMs, text] of pieces) {
    await clock.sleep(pauseMs);
    if (text instanceof Error) throw text;
    yield text;
  }
}

/** Runs the stage over `pieces`, recording what it showed and when, and what passed through. */
function run(pieces: readonly [number, string | Error][]) {
  const clock = new FakeClock();
  const shown: (FirstShown & { at: number })[] = [];
  const passed = (async () => {
    let text = "";
    for await (const delta of showFirstLineEarly(deltas(clock, pieces), 50, clock, (first) => shown.push({ ...first, at: clock.now() }))) text += delta;
    return text;
  })();
  passed.catch(() => undefined);
  return { clock, shown, passed };
}

describe("showFirstLineEarly (stream stage)", () => {
  it("a slow block: its first line 50 ms after it ends, and the stream goes on unchanged", async () => {
    const { clock, shown, passed } = run([[100, "a();\n"], [100, "  b();\n"], [100, "  c();"]]);
    await clock.advance(149);
    assert.deepEqual(shown, []);
    await clock.advance(1);
    assert.deepEqual(shown, [{ text: "a();", partial: true, at: 150 }]);
    await clock.advance(200);
    assert.equal(await passed, "a();\n  b();\n  c();");
    assert.equal(shown.length, 1, "shown once");
  });

  it("a block whose rest follows at once: the whole of it, at its end", async () => {
    const { clock, shown, passed } = run([[100, "a();\n"], [30, "  b();"]]);
    await clock.advance(500);
    assert.equal(await passed, "a();\n  b();");
    assert.deepEqual(shown, [{ text: "a();\n  b();", partial: false, at: 130 }]);
    assert.equal(clock.pendingTimers, 0, "the wait for the rest ended with the stream");
  });

  it("one line: the whole of it, at its end", async () => {
    const { clock, shown } = run([[100, "x + "], [100, "1;"]]);
    await clock.advance(500);
    assert.deepEqual(shown, [{ text: "x + 1;", partial: false, at: 200 }]);
  });

  it("empty lines before the first line of code do not count as it", async () => {
    const { clock, shown } = run([[100, "\n"], [100, "a();\n"], [100, "b();"]]);
    await clock.advance(140);
    assert.deepEqual(shown, []);
    await clock.advance(110);
    assert.deepEqual(shown, [{ text: "\na();", partial: true, at: 250 }]);
  });

  it("a stream that fails shows nothing and leaves no timer", async () => {
    const { clock, shown, passed } = run([[100, "a();\n"], [20, new Error("server failed")]]);
    await clock.advance(500);
    await assert.rejects(passed, /server failed/);
    assert.deepEqual(shown, []);
    assert.equal(clock.pendingTimers, 0);
  });
});
