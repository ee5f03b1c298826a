import assert from "node:assert/strict";
import { redact } from "../../../../src/core/log/redact";

describe("redact", () => {
  it("removes Authorization bearer values", () => {
    assert.equal(redact('headers: {"Authorization": "Bearer abc.def-123"}'), 'headers: {"Authorization": "Bearer [redacted]"}');
  });
  it("removes key-shaped tokens", () => {
    assert.equal(redact("using sk-proj_ABCDEFGHIJKL and wsk_0123456789abcdef"), "using [redacted] and [redacted]");
  });
  it("removes the known secrets wherever they appear", () => {
    assert.equal(redact("401 for key hunter2hunter2!", ["hunter2hunter2"]), "401 for key [redacted]!");
  });
  it("leaves ordinary text alone", () => {
    const line = "GET http://127.0.0.1:8765/v1/models -> 200 in 12 ms (key source: env)";
    assert.equal(redact(line, ["", "x"]), line);
  });
});
