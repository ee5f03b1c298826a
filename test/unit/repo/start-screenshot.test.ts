import assert from "node:assert/strict";
import { isReady } from "../../../scripts/start/ghost-text-screenshot";

// npm start waits for Wisp to be ready before it types for its ghost-text screenshot. On a first
// start the server lists only the embedded models, and the status bar says so: that is ready too.
describe("npm start's ghost-text screenshot: when Wisp is ready", () => {
  it("takes the status bar's ready texts, with or without a latency and the tiny-models note", () => {
    for (const text of ["Wisp", "Wisp 41ms", "Wisp · tiny models", "Wisp 41ms · tiny models"]) assert.ok(isReady(text), text);
  });

  it("waits on the others: connecting, no key, an error", () => {
    for (const text of ["", "Wisp: connecting", "Wisp: no API key", "Wisp: offline", "Wisp · tiny"]) assert.ok(!isReady(text), text);
  });
});
