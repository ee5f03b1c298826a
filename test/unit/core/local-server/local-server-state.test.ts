import assert from "node:assert/strict";
import { describeExit, describeLocalServer } from "../../../../src/core/local-server/local-server-state";
import { describeStatus, type StatusInput } from "../../../../src/core/status/describe-status";

const base: StatusInput = {
  connection: { kind: "unreachable", message: "connection refused" },
  completionsEnabled: true,
  keySource: "secret",
  baseUrl: "http://127.0.0.1:8765/v1",
  busy: false,
};

describe("local server in the status bar", () => {
  it("says how a process ended", () => {
    assert.equal(describeExit(null, "SIGKILL"), "was killed (SIGKILL)");
    assert.equal(describeExit(null, "SIGTERM"), "was stopped by SIGTERM");
    assert.equal(describeExit(3, null), "exited with code 3");
  });

  it("shows a starting server instead of unreachable", () => {
    const view = describeStatus({ ...base, localServer: { kind: "starting", port: 8765 } });
    assert.equal(view.state, "starting");
    assert.match(view.text, /sync~spin.*starting server/);
    assert.match(view.tooltip, /Local server: starting on port 8765/);
  });

  it("shows a restart with its reason and attempt, even while the last check said ready", () => {
    const localServer = { kind: "restarting", port: 8765, attempt: 1, max: 3, lastExit: "was killed (SIGKILL)" } as const;
    const view = describeStatus({ ...base, connection: { kind: "ready", modelCount: 2 }, localServer });
    assert.equal(view.state, "starting");
    assert.match(view.text, /restarting server/);
    assert.match(view.tooltip, /^Wisp: the local server was killed \(SIGKILL\); restarting \(1 of 3\)$/m);
  });

  it("keeps the restart in the tooltip once the server answers again", () => {
    const localServer = { kind: "running", port: 8765, pid: 42, restarts: 1, lastExit: "was killed (SIGKILL)" } as const;
    const view = describeStatus({ ...base, connection: { kind: "ready", modelCount: 2 }, localServer });
    assert.equal(view.state, "ready");
    assert.match(view.tooltip, /Local server: running on port 8765 \(pid 42\); restarted once, last after it was killed \(SIGKILL\)/);
  });

  it("shows why the server stopped for good, unless another server answers", () => {
    const localServer = { kind: "failed", message: "port 8765 on 127.0.0.1 is in use by another program" } as const;
    const view = describeStatus({ ...base, localServer });
    assert.equal(view.state, "error");
    assert.match(view.text, /server stopped/);
    assert.match(view.tooltip, /in use by another program/);
    assert.equal(describeStatus({ ...base, connection: { kind: "ready", modelCount: 1 }, localServer }).state, "ready");
  });

  it("adds no line while this window runs no server", () => {
    assert.equal(describeLocalServer({ kind: "stopped" }), undefined);
    assert.doesNotMatch(describeStatus(base).tooltip, /Local server/);
  });
});
