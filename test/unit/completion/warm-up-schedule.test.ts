import assert from "node:assert/strict";
import { WarmUpSchedule } from "../../../src/core/completion/warm-up-schedule";
import { FakeClock } from "./fake-clock";

/** An editor as the schedule sees it: a document object, the cursor's line, the edit version. */
interface Editor {
  name: string;
  document: object;
  line: number;
  version: number;
}

function harness() {
  const clock = new FakeClock();
  const warmed: string[] = [];
  const schedule = new WarmUpSchedule<Editor, object>(clock, (e) => e, (e) => warmed.push(`${e.name}:${e.line}`));
  const editor = (name: string): Editor => ({ name, document: {}, line: 0, version: 1 });
  const type = (e: Editor) => {
    e.version++;
    schedule.moved(e);
  };
  const jump = (e: Editor, line: number) => {
    e.line = line;
    schedule.moved(e);
  };
  return { clock, warmed, schedule, editor, type, jump };
}

describe("warm-up schedule: when navigation warms the prompt", () => {
  it("warms where the cursor is once the user settles in an editor made active", async () => {
    const h = harness();
    const a = h.editor("a");
    h.schedule.activated(a);
    h.jump(a, 3); // a near move while settling (the cursor put at the file's end)
    await h.clock.advance(299);
    assert.deepEqual(h.warmed, []);
    await h.clock.advance(1);
    assert.deepEqual(h.warmed, ["a:3"]);
  });

  it("typing before the editor settles drops its warm-up: the keystroke's completion evaluates the prompt", async () => {
    const h = harness();
    const a = h.editor("a");
    h.schedule.activated(a);
    await h.clock.advance(100);
    h.type(a);
    h.type(a);
    await h.clock.advance(1000);
    assert.deepEqual(h.warmed, []);
    assert.equal(h.clock.pendingTimers, 0);
  });

  it("a jump far without an edit warms there, a near one does not; the line typed on is where the next jump counts from", async () => {
    const h = harness();
    const a = h.editor("a");
    h.schedule.activated(a);
    await h.clock.advance(300);
    h.jump(a, 39);
    await h.clock.advance(300);
    assert.deepEqual(h.warmed, ["a:0"]);
    h.jump(a, 45);
    await h.clock.advance(300);
    assert.deepEqual(h.warmed, ["a:0", "a:45"]);
    a.line = 46;
    h.type(a);
    h.jump(a, 80);
    await h.clock.advance(300);
    assert.deepEqual(h.warmed, ["a:0", "a:45"], "34 lines from where the typing was");
    h.jump(a, 86);
    await h.clock.advance(300);
    assert.deepEqual(h.warmed, ["a:0", "a:45", "a:86"]);
  });

  it("switching through editors warms only the one the user stays in; none active warms nothing", async () => {
    const h = harness();
    const [a, b] = [h.editor("a"), h.editor("b")];
    h.schedule.activated(a);
    await h.clock.advance(100);
    h.schedule.activated(b);
    await h.clock.advance(300);
    h.schedule.activated(a);
    await h.clock.advance(100);
    h.schedule.activated(undefined);
    await h.clock.advance(1000);
    assert.deepEqual(h.warmed, ["b:0"]);
  });

  it("dispose drops a waiting warm-up", async () => {
    const h = harness();
    h.schedule.activated(h.editor("a"));
    h.schedule.dispose();
    await h.clock.advance(1000);
    assert.deepEqual(h.warmed, []);
  });
});
