import assert from "node:assert/strict";
import { asUsageEvent, hourOf, UsageRollup, type UsageEvent } from "../../../../src/core/usage/usage-rollup";

const HOUR = 3_600_000;
const t0 = Date.UTC(2026, 2, 3, 10, 15);
const event = (over: Partial<UsageEvent> = {}): UsageEvent => ({ t: t0, key: "key_a", model: "wisp-tiny", status: 200, prompt_tokens: 10, completion_tokens: 5, images: 0, ...over });

describe("UsageRollup", () => {
  it("counts requests, tokens and images per hour, key and model", () => {
    const rollup = new UsageRollup();
    rollup.add(event());
    rollup.add(event({ t: t0 + 20 * 60_000, prompt_tokens: 3, completion_tokens: 7 }));
    rollup.add(event({ key: "key_b" }));
    rollup.add(event({ t: t0 + HOUR, model: "wisp-tiny-diffusion", prompt_tokens: 0, completion_tokens: 0, images: 2 }));
    rollup.add(event({ model: null, status: 401, prompt_tokens: 0, completion_tokens: 0 }));
    assert.deepEqual(rollup.buckets(), [
      { hour: hourOf(t0), key: "key_a", model: "", requests: 1, errors: 1, prompt_tokens: 0, completion_tokens: 0, images: 0 },
      { hour: hourOf(t0), key: "key_a", model: "wisp-tiny", requests: 2, errors: 0, prompt_tokens: 13, completion_tokens: 12, images: 0 },
      { hour: hourOf(t0), key: "key_b", model: "wisp-tiny", requests: 1, errors: 0, prompt_tokens: 10, completion_tokens: 5, images: 0 },
      { hour: hourOf(t0) + HOUR, key: "key_a", model: "wisp-tiny-diffusion", requests: 1, errors: 0, prompt_tokens: 0, completion_tokens: 0, images: 2 },
    ]);
    assert.equal(rollup.lastUsed("key_a"), t0 + HOUR);
    assert.equal(rollup.lastUsed("key_b"), t0);
    assert.equal(rollup.lastUsed("key_c"), undefined);
  });

  it("keeps only buckets that reach into the asked period", () => {
    const rollup = new UsageRollup();
    rollup.add(event({ t: t0 - 5 * HOUR }));
    rollup.add(event());
    assert.deepEqual(rollup.buckets(t0 - HOUR).map((b) => b.hour), [hourOf(t0)]);
  });

  it("gives the same counts after a snapshot is merged into a new rollup", () => {
    const first = new UsageRollup();
    first.add(event());
    first.add(event({ key: "key_b", t: t0 + 3 * HOUR }));
    const second = new UsageRollup();
    second.merge(JSON.parse(JSON.stringify(first.snapshot())));
    second.add(event());
    assert.equal(second.buckets().find((b) => b.key === "key_a")!.requests, 2);
    assert.equal(second.lastUsed("key_b"), t0 + 3 * HOUR);
  });

  it("reads back only well-formed events, with counts made whole and non-negative", () => {
    assert.equal(asUsageEvent(null), undefined);
    assert.equal(asUsageEvent({ t: "now", key: "k", model: null }), undefined);
    assert.equal(asUsageEvent({ t: 1, key: 3, model: null }), undefined);
    assert.equal(asUsageEvent({ t: 1, key: "k", model: 5 }), undefined);
    assert.deepEqual(asUsageEvent({ t: 1, key: "k", model: "m", prompt_tokens: -4, completion_tokens: 2.7, images: "x" }), {
      t: 1,
      key: "k",
      model: "m",
      status: 200,
      prompt_tokens: 0,
      completion_tokens: 2,
      images: 0,
    });
  });
});
