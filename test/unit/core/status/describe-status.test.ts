import assert from "node:assert/strict";
import { describeStatus, type StatusInput } from "../../../../src/core/status/describe-status";

const ready: StatusInput = {
  connection: { kind: "ready", modelCount: 2 },
  completionsEnabled: true,
  keySource: "secret",
  baseUrl: "http://127.0.0.1:8765/v1",
  busy: false,
};

describe("describeStatus", () => {
  const cases: [string, Partial<StatusInput>, string, RegExp][] = [
    ["ready", {}, "ready", /^\$\(sparkle\) Wisp$/],
    ["ready with latency", { lastLatencyMs: 84.6 }, "ready", /Wisp 85ms$/],
    ["busy", { busy: true }, "busy", /loading~spin/],
    ["completions off", { completionsEnabled: false }, "off", /circle-slash/],
    ["no key", { connection: { kind: "no-key" }, keySource: "none" }, "no-key", /no API key/],
    ["key rejected", { connection: { kind: "bad-key", message: "401" } }, "bad-key", /key rejected/],
    ["unreachable", { connection: { kind: "unreachable", message: "ECONNREFUSED" } }, "unreachable", /unreachable/],
    ["last error", { lastError: "model not found" }, "error", /error/],
    ["checking", { connection: { kind: "checking" } }, "checking", /sync~spin/],
  ];
  for (const [name, patch, state, text] of cases) {
    it(`shows ${name}`, () => {
      const view = describeStatus({ ...ready, ...patch });
      assert.equal(view.state, state);
      assert.match(view.text, text);
    });
  }

  it("says completions are on in Wisp but not shown by the editor where editor.inlineSuggest.enabled is off", () => {
    assert.match(describeStatus(ready).tooltip, /^Completions: on$/m);
    assert.match(describeStatus({ ...ready, editorShowsGhostText: false }).tooltip, /^Completions: on, but editor\.inlineSuggest\.enabled is off here: the editor shows no ghost text by itself \(Wisp: Trigger Completion asks for one\)$/m);
    assert.match(describeStatus({ ...ready, completionsEnabled: false, editorShowsGhostText: false }).tooltip, /^Completions: off$/m);
  });

  it("names the key source and the server in the tooltip", () => {
    assert.match(describeStatus(ready).tooltip, /secret store/);
    assert.match(describeStatus({ ...ready, keySource: "env" }).tooltip, /WISP_API_KEY/);
    assert.match(describeStatus(ready).tooltip, /127\.0\.0\.1:8765/);
  });

  it("says the secret store could not be read, and why, instead of claiming no key is set", () => {
    const view = describeStatus({ ...ready, connection: { kind: "no-key" }, keySource: "unreadable", keyProblem: "Cannot create an item in a locked collection" });
    assert.match(view.tooltip, /^API key: the secret store could not be read \(Cannot create an item in a locked collection\)/m);
    assert.doesNotMatch(view.tooltip, /API key: none/);
  });

  it("counts how completions ended this session, leaving out kinds that did not happen", () => {
    const view = describeStatus({ ...ready, outcomes: { "shown (network)": 3, debounced: 12, error: 0 } });
    assert.match(view.tooltip, /This session: 3 shown \(network\), 12 debounced$/m);
    assert.doesNotMatch(describeStatus(ready).tooltip, /This session/);
  });

  it("puts the connection problem before a stale request error", () => {
    const view = describeStatus({ ...ready, connection: { kind: "unreachable", message: "down" }, lastError: "old" });
    assert.equal(view.state, "unreachable");
    assert.match(view.tooltip, /down/);
  });

  it("says in the tooltip when the package has no local server (the universal one), and nothing when it has", () => {
    const universal = describeStatus({ ...ready, localServerAvailable: false });
    assert.match(universal.tooltip, /^Local server: none bundled in this package \(universal\): wisp\.baseUrl points at a server elsewhere$/m);
    assert.equal(universal.state, "ready");
    assert.doesNotMatch(describeStatus({ ...ready, localServerAvailable: true }).tooltip, /Local server/);
    // A server this window runs is described instead (wisp.localServer.command makes one available).
    const running = describeStatus({ ...ready, localServerAvailable: false, localServer: { kind: "running", port: 8765, pid: 7, restarts: 0 } });
    assert.doesNotMatch(running.tooltip, /none bundled/);
  });

  it("says so while the server has only the embedded models, and where the way out is", () => {
    const view = describeStatus({ ...ready, embeddedOnly: true, lastLatencyMs: 31 });
    assert.equal(view.state, "ready");
    assert.equal(view.text, "$(sparkle) Wisp 31ms · tiny models");
    assert.match(view.tooltip, /^Models: only the tiny embedded models \(wisp-coder has 25 million parameters.*Wisp: Get Started$/m);
    assert.doesNotMatch(describeStatus(ready).tooltip, /tiny/);
  });
});
