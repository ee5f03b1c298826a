import assert from "node:assert/strict";
import {
  beginRequest,
  blobsOf,
  emptyCheckpoints,
  keyOf,
  recordAfter,
  recordUndone,
  redoRecord,
  rememberBefore,
  restorePlan,
  taskWrites,
  withRedone,
  withRestored,
  type ChatCheckpoints,
  type FileRef,
} from "../../../src/core/agent/request-checkpoints";
import type { ChatTurn } from "../../../src/core/chat/conversation";

/**
 * A workspace of text files and a blob store keyed by content, driven the way the extension
 * drives the checkpoints: a request's first write to a file remembers it, every write records
 * what it left; a restore applies the plan and keeps what it replaced; Redo writes that back.
 */
class Workspace {
  readonly files = new Map<string, string>();
  cp: ChatCheckpoints = emptyCheckpoints;
  private readonly blobs = new Map<string, string>();

  constructor(files: Record<string, string>) {
    for (const [path, text] of Object.entries(files)) this.files.set(path, text);
  }

  ref(path: string): FileRef {
    const text = this.files.get(path);
    if (text === undefined) return { existed: false };
    this.blobs.set(`#${text}`, text);
    return { existed: true, blob: `#${text}` };
  }

  request(id: string, writes: [path: string, text: string | undefined][]): void {
    this.cp = beginRequest(this.cp, id, `answer-${id}`);
    for (const [path, text] of writes) {
      this.cp = rememberBefore(this.cp, id, path, this.ref(path));
      if (text === undefined) this.files.delete(path);
      else this.files.set(path, text);
      this.cp = recordAfter(this.cp, id, path, keyOf(this.ref(path)));
    }
  }

  /** Paths the user changed since the agent's last write, then the restore itself. */
  restore(id: string, turns: ChatTurn[] = []): string[] {
    const plan = restorePlan(this.cp, id)!;
    const changed = plan.steps.filter((s) => keyOf(this.ref(s.path)) !== s.expected).map((s) => s.path);
    const files = plan.steps.map((s) => ({ path: s.path, state: this.ref(s.path), restored: keyOf(s.target) }));
    for (const step of plan.steps) this.write(step.path, step.target);
    this.cp = withRestored(this.cp, { requestId: id, anchor: "", turns, files });
    return changed;
  }

  redo(): ChatTurn[] {
    const record = redoRecord(this.cp, "")!;
    for (const file of record.files) this.write(file.path, file.state);
    this.cp = withRedone(this.cp);
    return [...record.turns];
  }

  snapshot(): Record<string, string> {
    return Object.fromEntries([...this.files].sort(([a], [b]) => a.localeCompare(b)));
  }

  private write(path: string, ref: FileRef): void {
    if (ref.existed) this.files.set(path, this.blobs.get(ref.blob)!);
    else this.files.delete(path);
  }
}

describe("core/agent: checkpoints per request", () => {
  const start = { "a.js": "a0", "b.js": "b0", "old.txt": "old0" };

  /** Three requests: 1 edits a.js and creates new.js; 2 edits b.js; 3 edits a.js and new.js again and deletes old.txt. */
  function threeRequests(): { ws: Workspace; states: Record<string, string>[] } {
    const ws = new Workspace(start);
    const states = [ws.snapshot()];
    ws.request("r1", [["a.js", "a1"], ["new.js", "n1"], ["a.js", "a1b"]]);
    states.push(ws.snapshot());
    ws.request("r2", [["b.js", "b2"]]);
    states.push(ws.snapshot());
    ws.request("r3", [["a.js", "a3"], ["new.js", "n3"], ["old.txt", undefined]]);
    states.push(ws.snapshot());
    return { ws, states };
  }

  it("keeps, per request, each file as it was before that request's first write to it", () => {
    const { ws } = threeRequests();
    const r1 = ws.cp.requests[0]!;
    assert.deepEqual(r1.files.map((f) => [f.path, keyOf(f.before), f.after]), [["a.js", "#a0", "#a1b"], ["new.js", null, "#n1"]]);
    const r3 = ws.cp.requests[2]!;
    assert.deepEqual(r3.files.map((f) => [f.path, keyOf(f.before), f.after]), [["a.js", "#a1b", "#a3"], ["new.js", "#n1", "#n3"], ["old.txt", "#old0", null]]);
  });

  it("restoring to request 1 of 3 puts back every file 1-3 touched as before request 1: created files deleted, deleted ones back", () => {
    const { ws, states } = threeRequests();
    const plan = restorePlan(ws.cp, "r1")!;
    assert.deepEqual(plan.steps.map((s) => [s.path, keyOf(s.target), s.expected]), [
      ["a.js", "#a0", "#a3"],
      ["new.js", null, "#n3"],
      ["b.js", "#b0", "#b2"],
      ["old.txt", "#old0", null],
    ]);
    assert.deepEqual(plan.requests.map((r) => r.requestId), ["r1", "r2", "r3"]);
    assert.deepEqual(ws.restore("r1"), [], "nothing was changed by hand");
    assert.deepEqual(ws.snapshot(), states[0]);
    assert.deepEqual(ws.cp.requests, [], "the removed requests have no checkpoint any more");
  });

  it("restoring to request 3 touches only what request 3 changed; request 2's b.js stays", () => {
    const { ws, states } = threeRequests();
    ws.restore("r3");
    assert.deepEqual(ws.snapshot(), states[2]);
    assert.deepEqual(ws.cp.requests.map((r) => r.requestId), ["r1", "r2"]);
  });

  it("Redo brings back the files and the turns; restores stack, and Redo undoes the latest first", () => {
    const { ws, states } = threeRequests();
    const turns3: ChatTurn[] = [{ id: "r3", role: "user", text: "third", attachments: [], createdAt: 3 }];
    const turns1: ChatTurn[] = [{ id: "r1", role: "user", text: "first", attachments: [], createdAt: 1 }];
    ws.restore("r3", turns3);
    ws.restore("r1", turns1);
    assert.deepEqual(ws.snapshot(), states[0]);
    assert.deepEqual(ws.redo(), turns1);
    assert.deepEqual(ws.snapshot(), states[2]);
    assert.deepEqual(ws.cp.requests.map((r) => r.requestId), ["r1", "r2"]);
    assert.deepEqual(ws.redo(), turns3);
    assert.deepEqual(ws.snapshot(), states[3]);
    assert.deepEqual(ws.cp.requests.map((r) => r.requestId), ["r1", "r2", "r3"]);
    assert.equal(redoRecord(ws.cp, ""), undefined, "nothing left to redo");
    // And the checkpoints still work after Redo.
    ws.restore("r2");
    assert.deepEqual(ws.snapshot(), states[1]);
  });

  it("a file changed by hand since the agent's write is named before it is overwritten, and Redo gives the hand's version back", () => {
    const { ws } = threeRequests();
    ws.files.set("b.js", "b2 plus a line by hand");
    ws.files.delete("new.js");
    assert.deepEqual(ws.restore("r1"), ["new.js", "b.js"]);
    assert.equal(ws.files.get("b.js"), "b0");
    ws.redo();
    assert.equal(ws.files.get("b.js"), "b2 plus a line by hand");
    assert.equal(ws.files.has("new.js"), false, "it was deleted by hand: Redo leaves it deleted");
  });

  it("a new request gives up Redo; Redo is refused once the conversation went on", () => {
    const { ws, states } = threeRequests();
    ws.restore("r2");
    assert.ok(redoRecord(ws.cp, ""));
    assert.equal(redoRecord(ws.cp, "an answer sent since"), undefined, "the chat's last turn is not the one left by the restore");
    ws.request("r4", [["b.js", "b4"]]);
    assert.deepEqual(ws.cp.redo, []);
    assert.deepEqual(ws.cp.requests.map((r) => r.requestId), ["r1", "r4"]);
    ws.restore("r4");
    assert.deepEqual(ws.snapshot(), states[1], "the new request's checkpoint is the state after request 1");
  });

  it("the task's Undo: the files it put back are expected as they were before it (no false alarm later)", () => {
    const { ws } = threeRequests();
    ws.files.set("a.js", "a1b");
    ws.files.set("new.js", "n1");
    ws.files.set("old.txt", "old0");
    ws.cp = recordUndone(ws.cp, "answer-r3");
    assert.deepEqual(ws.restore("r1"), []);
  });

  it("taskWrites: what the task (by its answer turn) last left in its files, or the original where no write finished", () => {
    let cp = beginRequest(emptyCheckpoints, "r1", "a1");
    cp = rememberBefore(cp, "r1", "x", { existed: true, blob: "#x0" });
    cp = recordAfter(cp, "r1", "x", "#x1");
    cp = rememberBefore(cp, "r1", "new", { existed: false });
    cp = rememberBefore(cp, "r1", "stalled", { existed: true, blob: "#s0" });
    cp = beginRequest(cp, "r2", "a2");
    cp = rememberBefore(cp, "r2", "x", { existed: true, blob: "#x1" });
    cp = recordAfter(cp, "r2", "x", "#x2");
    assert.deepEqual(taskWrites(cp, "a1"), [
      { path: "x", expected: "#x1" },
      { path: "new", expected: null },
      { path: "stalled", expected: "#s0" },
    ]);
    assert.deepEqual(taskWrites(cp, "a2", ["x"]), [{ path: "x", expected: "#x2" }]);
    assert.deepEqual(taskWrites(cp, "a1", ["nothing"]), []);
    assert.deepEqual(taskWrites(cp, "unknown"), []);
    assert.deepEqual(taskWrites(recordUndone(cp, "a2"), "a2"), [{ path: "x", expected: "#x1" }], "after Undo, the file is expected as it was before");
  });

  it("a request's later writes keep its first original; a write that never finished expects the file unchanged", () => {
    let cp = beginRequest(emptyCheckpoints, "r1", "a1");
    cp = rememberBefore(cp, "r1", "x", { existed: true, blob: "#x0" });
    cp = rememberBefore(cp, "r1", "x", { existed: true, blob: "#x1" });
    const plan = restorePlan(cp, "r1")!;
    assert.deepEqual(plan.steps, [{ path: "x", target: { existed: true, blob: "#x0" }, expected: "#x0" }]);
    assert.equal(restorePlan(cp, "unknown"), undefined);
    assert.deepEqual(beginRequest(cp, "r1", "a1").requests, cp.requests, "beginning the same request again (Continue) keeps its files");
  });

  it("blobsOf: the stored contents still needed, by the requests and by what Redo would bring back", () => {
    const { ws } = threeRequests();
    assert.deepEqual([...blobsOf(ws.cp)].sort(), ["#a0", "#a1b", "#b0", "#n1", "#old0"]);
    ws.restore("r3");
    assert.deepEqual([...blobsOf(ws.cp)].sort(), ["#a0", "#a1b", "#a3", "#b0", "#n1", "#n3", "#old0"], "Redo needs the files as they were");
    ws.request("r4", []);
    assert.deepEqual([...blobsOf(ws.cp)].sort(), ["#a0", "#b0"]);
  });
});
