import assert from "node:assert/strict";
import type { KeyInfo } from "../../../src/server/auth/key-records";
import { delay } from "../../../src/core/base/delay";
import { KeyCache } from "../../../src/server/store/postgres/key-cache";
import { settableTimeOfDay } from "../../harness/settable-time-of-day";

const key = (id: string): KeyInfo => ({ id, name: id, prefix: "wisp-abcd", created: 1 });

describe("KeyCache (a replica's cache of checked keys)", () => {
  let now = 0;
  const clock = () => now;
  beforeEach(() => {
    now = 1_000_000;
  });

  it("keeps nothing until its listener listens, then answers hits until a key's change drops it", () => {
    const cache = new KeyCache(60_000, { capacity: 100, now: clock });
    cache.set("h1", key("a"), cache.begin());
    assert.equal(cache.get("h1"), undefined, "not exact yet: nothing cached");
    cache.listen();
    cache.set("h1", key("a"), cache.begin());
    cache.set("h2", key("b"), cache.begin());
    assert.deepEqual(cache.get("h1"), key("a"));
    cache.invalidate("a");
    assert.equal(cache.get("h1"), undefined);
    assert.deepEqual(cache.get("h2"), key("b"));
    cache.invalidate("*");
    assert.equal(cache.get("h2"), undefined);
  });

  it("does not keep an answer looked up before a change that came while it was on its way", () => {
    const cache = new KeyCache(60_000, { capacity: 100, now: clock });
    cache.listen();
    const since = cache.begin();
    cache.invalidate("a"); // the revocation's notification overtakes the lookup's answer
    cache.set("h1", key("a"), since);
    assert.equal(cache.get("h1"), undefined);
  });

  it("serves keys checked before the listener was lost for the grace period only, and starts empty when it listens again", () => {
    const cache = new KeyCache(60_000, { capacity: 100, now: clock });
    cache.listen();
    cache.set("h1", key("a"), cache.begin());
    cache.lost();
    assert.equal(cache.get("h1"), undefined, "no longer exact: a check must ask the database");
    now += 59_000;
    assert.deepEqual(cache.stale("h1"), key("a"), "the database away: within the grace period");
    now += 2_000;
    assert.equal(cache.stale("h1"), undefined, "beyond it: no longer");
    cache.listen();
    assert.equal(cache.size, 0);
    assert.equal(cache.stale("h1"), undefined, "exact again: stale answers are for outages only");
  });

  it("checks a key in the database again once it was checked longer ago than the maximum age, even while listening", () => {
    const cache = new KeyCache(60_000, { maxAgeMs: 30_000, capacity: 100, now: clock });
    cache.listen();
    cache.set("h1", key("a"), cache.begin());
    now += 30_000;
    assert.deepEqual(cache.get("h1"), key("a"));
    now += 1;
    assert.equal(cache.get("h1"), undefined, "older than 30 s: asked again");
    cache.set("h1", key("a"), cache.begin());
    assert.deepEqual(cache.get("h1"), key("a"), "checked again: trusted for another 30 s");
  });

  describe("when the system clock is set back (NTP, a laptop waking)", () => {
    const clockSet = settableTimeOfDay();

    it("still checks a key again once it was checked longer ago than the maximum age", async () => {
      const cache = new KeyCache(60_000, { maxAgeMs: 20, capacity: 100 });
      cache.listen();
      cache.set("h1", key("a"), cache.begin());
      clockSet.shift(-3_600_000);
      await delay(40);
      assert.equal(cache.get("h1"), undefined, "a revoked key must not be trusted from the cache for the hour the clock went back");
    });

    it("serves keys for the grace period of an outage only", async () => {
      const cache = new KeyCache(20, { capacity: 100 });
      cache.listen();
      cache.set("h1", key("a"), cache.begin());
      cache.lost();
      clockSet.shift(-3_600_000);
      await delay(40);
      assert.equal(cache.stale("h1"), undefined);
    });
  });
});
