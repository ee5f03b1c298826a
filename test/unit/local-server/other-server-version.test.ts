import assert from "node:assert/strict";
import { otherServerVersionNote } from "../../../src/core/local-server/other-server-version";

describe("another Wisp server's version at the base URL", () => {
  const origin = "http://127.0.0.1:8765";

  it("says nothing when it runs this Wisp's version, or cannot tell its own", () => {
    assert.equal(otherServerVersionNote(origin, "0.2.0", "0.2.0"), undefined);
    assert.equal(otherServerVersionNote(origin, "0.2.0", "unknown"), undefined);
  });

  it("names both versions, and how to run this version's, when they differ", () => {
    assert.equal(
      otherServerVersionNote(origin, "0.2.0", "0.1.0"),
      "the Wisp server at http://127.0.0.1:8765 runs version 0.1.0 (this Wisp is 0.2.0); it was started by another window or an earlier Wisp, and Wisp uses it as it is. " +
        "To run this version's, stop it (Wisp: Stop Local Server in the window that started it, or close that window), then run Wisp: Start Local Server.",
    );
  });

  it("calls a server whose health answer has no version (older than the field) an earlier version", () => {
    assert.match(otherServerVersionNote(origin, "0.2.0", undefined)!, /runs an earlier version \(this Wisp is 0\.2\.0\)/);
  });
});
