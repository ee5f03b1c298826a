import assert from "node:assert/strict";
import type { UsageBucket } from "../../../../src/core/usage/usage-rollup";
import { niceScale, slotLabel, slotTimes, usageRange, usageSeries, usageTotals } from "../../../../src/core/usage/usage-series";

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.UTC(2026, 2, 10, 15, 30);
const bucket = (hour: number, key: string, model: string, counts: Partial<UsageBucket> = {}): UsageBucket => ({
  hour,
  key,
  model,
  requests: 1,
  errors: 0,
  prompt_tokens: 10,
  completion_tokens: 4,
  images: 0,
  ...counts,
});

/** Runs `body` with the process in time zone `zone` (Node applies a change of TZ at once). */
function inZone<T>(zone: string, body: () => T): T {
  const saved = process.env.TZ;
  process.env.TZ = zone;
  try {
    return body();
  } finally {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  }
}

describe("usage series", () => {
  it("spans the last 24 hours by hour, ending with the current hour", () => {
    const range = inZone("UTC", () => usageRange("24h", now));
    assert.equal(slotTimes(range).length, 24);
    assert.equal(slotTimes(range)[1]! - slotTimes(range)[0]!, HOUR);
    assert.equal(slotTimes(range).at(-1), Date.UTC(2026, 2, 10, 15));
  });

  it("spans the last 7 or 30 local days, starting at local midnight", () => {
    const utc = inZone("UTC", () => usageRange("7d", now));
    assert.equal(slotTimes(utc)[0], Date.UTC(2026, 2, 4));
    assert.equal(slotTimes(utc).length, 7);
    // UTC+2: 15:30 UTC is 17:30 local, today began at 22:00 UTC the day before.
    const east = inZone("Africa/Cairo", () => usageRange("30d", now));
    assert.equal(slotTimes(east)[29], Date.UTC(2026, 2, 9, 22));
    assert.equal(slotTimes(east)[29]! - slotTimes(east)[28]!, DAY);
  });

  it("labels each day by its own date across a change of the clocks (Berlin, summer time from 29 March)", () => {
    const hours = inZone("Europe/Berlin", () => slotTimes(usageRange("7d", Date.UTC(2026, 2, 31, 10))).map((t) => new Date(t).getHours()));
    assert.deepEqual(hours, [0, 0, 0, 0, 0, 0, 0], "each day starts at local midnight");
    const shown = inZone("Europe/Berlin", () => {
      const range = usageRange("7d", Date.UTC(2026, 2, 31, 10));
      const day = (d: number) => new Date(2026, 2, d).toLocaleDateString(undefined, { month: "short", day: "numeric" });
      return { labels: slotTimes(range).map((t) => slotLabel(range, t)), days: [25, 26, 27, 28, 29, 30, 31].map(day) };
    });
    assert.deepEqual(shown.labels, shown.days);
    assert.equal(shown.labels[0], "Mar 25");
    // Usage at 00:30 on 28 March (23:30 UTC the day before, winter time) counts on the 28th.
    const range = inZone("Europe/Berlin", () => usageRange("7d", Date.UTC(2026, 2, 31, 10)));
    const series = usageSeries([bucket(Date.UTC(2026, 2, 27, 23), "a", "m")], "requests", "key", range);
    assert.equal(series[0]!.values[3], 1);
  });

  it("labels hours with their minutes where the zone is off by half an hour (Kolkata, UTC+5:30)", () => {
    const labels = inZone("Asia/Kolkata", () => {
      const range = usageRange("24h", now);
      return slotTimes(range).slice(-2).map((t) => slotLabel(range, t));
    });
    // The hours from 14:00 and 15:00 UTC.
    assert.deepEqual(labels, ["19:30", "20:30"]);
  });

  it("sums a metric per key or per model into the right slots, largest total first", () => {
    const range = usageRange("24h", now);
    const h = (back: number) => Date.UTC(2026, 2, 10, 15 - back);
    const buckets = [
      bucket(h(0), "a", "m1"),
      bucket(h(0), "a", "m2", { completion_tokens: 6 }),
      bucket(h(2), "b", "m1", { completion_tokens: 20 }),
      bucket(h(30), "a", "m1", { completion_tokens: 99 }), // before the range
    ];
    const byKey = usageSeries(buckets, "completion_tokens", "key", range);
    assert.deepEqual(byKey.map((s) => [s.id, s.total]), [["b", 20], ["a", 10]]);
    assert.equal(byKey[1]!.values[23], 10);
    assert.equal(byKey[0]!.values[21], 20);
    const byModel = usageSeries(buckets, "requests", "model", range);
    assert.deepEqual(byModel.map((s) => [s.id, s.total]), [["m1", 2], ["m2", 1]]);
    assert.deepEqual(usageSeries(buckets, "images", "model", range), []);
  });

  it("totals per key and model within the range", () => {
    const range = usageRange("7d", now);
    const totals = usageTotals([bucket(now - HOUR, "a", "m"), bucket(now - 2 * DAY, "a", "m", { errors: 1 }), bucket(now - 40 * DAY, "a", "m")], range);
    assert.deepEqual(totals, [{ key: "a", model: "m", requests: 2, errors: 1, prompt_tokens: 20, completion_tokens: 8, images: 0 }]);
  });

  it("picks round axis steps that cover the largest value", () => {
    assert.deepEqual(niceScale(0), { top: 1, ticks: [0, 1] });
    assert.deepEqual(niceScale(3), { top: 3, ticks: [0, 1, 2, 3] });
    assert.deepEqual(niceScale(13), { top: 15, ticks: [0, 5, 10, 15] });
    assert.deepEqual(niceScale(1234), { top: 1500, ticks: [0, 500, 1000, 1500] });
    for (const max of [1, 7, 19, 88, 101, 999, 12345]) {
      const { top, ticks } = niceScale(max);
      assert.ok(top >= max && ticks.at(-1) === top && ticks.length >= 2 && ticks.length <= 6, `${max}: ${ticks}`);
    }
  });
});
