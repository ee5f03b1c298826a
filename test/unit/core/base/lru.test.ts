import assert from "node:assert/strict";
import { LruCache } from "../../../../src/core/base/lru";

describe("LruCache", () => {
  it("evicts the least recently used entry when full", () => {
    const cache = new LruCache<string, number>(2).set("a", 1).set("b", 2);
    cache.get("a");
    cache.set("c", 3);
    assert.deepEqual([...cache], [["a", 1], ["c", 3]]);
    assert.equal(cache.get("b"), undefined);
  });

  it("peek and has do not refresh an entry; overwriting does", () => {
    const cache = new LruCache<string, number>(2).set("a", 1).set("b", 2);
    assert.equal(cache.peek("a"), 1);
    assert.ok(cache.has("a"));
    cache.set("c", 3);
    assert.equal(cache.has("a"), false);
    cache.set("b", 20).set("d", 4);
    assert.deepEqual([...cache], [["b", 20], ["d", 4]]);
  });

  it("keeps undefined values as entries", () => {
    const cache = new LruCache<string, undefined>(2).set("u", undefined).set("v", undefined);
    cache.get("u");
    cache.set("w", undefined);
    assert.deepEqual([...cache].map(([k]) => k), ["u", "w"]);
  });

  it("deletes, clears and counts", () => {
    const cache = new LruCache<number, string>(3).set(1, "x").set(2, "y");
    assert.equal(cache.size, 2);
    assert.ok(cache.delete(1));
    assert.equal(cache.delete(1), false);
    cache.clear();
    assert.equal(cache.size, 0);
  });

  it("rejects a capacity that is not a positive integer", () => {
    for (const capacity of [0, -1, 1.5, Number.NaN]) assert.throws(() => new LruCache(capacity), RangeError);
  });
});
