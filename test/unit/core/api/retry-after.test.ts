import assert from "node:assert/strict";
import { parseRetryAfter } from "../../../../src/core/api/retry-after";

describe("parseRetryAfter", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");

  it("reads delta-seconds, including fractions", () => {
    assert.equal(parseRetryAfter("12", now), 12_000);
    assert.equal(parseRetryAfter(" 0 ", now), 0);
    assert.equal(parseRetryAfter("1.5", now), 1_500);
  });

  it("reads an HTTP date relative to now, never negative", () => {
    assert.equal(parseRetryAfter("Thu, 01 Jan 2026 00:01:30 GMT", now), 90_000);
    assert.equal(parseRetryAfter("Wed, 31 Dec 2025 23:59:00 GMT", now), 0);
  });

  it("is undefined for absent or unreadable values", () => {
    for (const value of [undefined, null, "", "soon", "-5"]) assert.equal(parseRetryAfter(value, now), undefined, String(value));
  });
});
