import assert from "node:assert/strict";
import { RateLimiter } from "../../../src/server/usage/rate-limiter";
import { settableTimeOfDay } from "../../harness/settable-time-of-day";

describe("RateLimiter", () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it("admits N requests a minute per key, then says when the oldest leaves the minute", () => {
    const limiter = new RateLimiter({ requestsPerMinute: 2, tokensPerMinute: 0 }, clock);
    assert.equal(limiter.admit("k1"), undefined);
    now += 10_000;
    assert.equal(limiter.admit("k1"), undefined);
    assert.equal(limiter.admit("k2"), undefined, "another key has its own minute");
    now += 5_000;
    assert.deepEqual(limiter.admit("k1"), { retryAfterSeconds: 45, reason: "2 requests per minute" });
    now += 45_000;
    assert.equal(limiter.admit("k1"), undefined);
  });

  it("refuses a key whose tokens of the last minute reached the limit, until enough of them are a minute old", () => {
    const limiter = new RateLimiter({ requestsPerMinute: 0, tokensPerMinute: 100 }, clock);
    limiter.spent("k", 60);
    now += 20_000;
    limiter.spent("k", 50);
    now += 1_000;
    // 110 spent: once the first 60 are a minute old (39 s from now) 50 remain, under the limit.
    assert.deepEqual(limiter.admit("k"), { retryAfterSeconds: 39, reason: "100 tokens per minute" });
    now += 39_000;
    assert.equal(limiter.admit("k"), undefined);
  });

  it("limits nothing when both limits are 0", () => {
    const limiter = new RateLimiter({ requestsPerMinute: 0, tokensPerMinute: 0 }, clock);
    limiter.spent("k", 1e9);
    for (let i = 0; i < 1000; i++) assert.equal(limiter.admit("k"), undefined);
    assert.equal(limiter.enabled, false);
  });

  describe("when the system clock is set (NTP, a laptop waking)", () => {
    const clockSet = settableTimeOfDay();

    it("a clock set back an hour does not hold a key at its limit for an hour", () => {
      const limiter = new RateLimiter({ requestsPerMinute: 2, tokensPerMinute: 0 });
      assert.equal(limiter.admit("k"), undefined);
      assert.equal(limiter.admit("k"), undefined);
      clockSet.shift(-3_600_000);
      const refused = limiter.admit("k");
      assert.ok(refused, "still at its limit within the minute");
      assert.ok(refused.retryAfterSeconds <= 60, `told to retry in ${refused.retryAfterSeconds} s`);
    });

    it("a clock set forward an hour does not lift the limit of the last minute", () => {
      const limiter = new RateLimiter({ requestsPerMinute: 0, tokensPerMinute: 100 });
      limiter.spent("k", 100);
      clockSet.shift(3_600_000);
      assert.equal(limiter.admit("k")?.reason, "100 tokens per minute");
    });
  });
});
