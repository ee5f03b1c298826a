import assert from "node:assert/strict";
import { continuation, describeProgress, formatBytes, formatDuration, parseContentRange, progressAt, RateMeter } from "../../../../src/server/models/pull/download-progress";

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name] ?? null });

describe("download arithmetic", () => {
  it("reads Content-Range", () => {
    assert.deepEqual(parseContentRange("bytes 1000-1999/2000"), { start: 1000, end: 1999, total: 2000 });
    assert.deepEqual(parseContentRange("bytes 5-9/*"), { start: 5, end: 9 });
    assert.equal(parseContentRange("bytes */2000"), undefined);
    assert.equal(parseContentRange(null), undefined);
  });

  it("appends a 206 that starts where the part ends, with the whole file's size", () => {
    assert.deepEqual(continuation(1000, 206, headers({ "content-range": "bytes 1000-1999/2000", "content-length": "1000" })), { append: true, total: 2000 });
    assert.deepEqual(continuation(1000, 206, headers({ "content-range": "bytes 1000-1999/*", "content-length": "1000" })), { append: true, total: 2000 });
  });

  it("starts over when the server ignores the range or answers another one", () => {
    assert.deepEqual(continuation(1000, 200, headers({ "content-length": "2000" })), { append: false, total: 2000 });
    assert.deepEqual(continuation(1000, 206, headers({ "content-range": "bytes 0-1999/2000" })), { append: false });
    assert.deepEqual(continuation(0, 200, headers({})), { append: false });
  });

  it("measures the rate over a sliding window, so a stall shows", () => {
    const meter = new RateMeter(5000);
    assert.equal(meter.sample(0, 0), 0);
    assert.equal(meter.sample(10e6, 1000), 10e6);
    assert.equal(meter.sample(20e6, 2000), 10e6);
    // Ten seconds without a byte: the window holds only the stall.
    meter.sample(20e6, 8000);
    assert.equal(meter.sample(20e6, 12000), 0);
  });

  it("estimates the time left from the rate and what remains, resumed bytes included", () => {
    const p = progressAt(600e6, 1000e6, 500e6, 10e6);
    assert.equal(p.secondsLeft, 40);
    assert.equal(describeProgress(p), "600.0 MB of 1.00 GB (60%), 10.0 MB/s, 40s left");
    assert.equal(describeProgress(progressAt(5e6, undefined, 0, 0)), "5.0 MB");
  });

  it("formats sizes and durations for people", () => {
    assert.deepEqual([formatBytes(512), formatBytes(12_345), formatBytes(640e6), formatBytes(1.134e9)], ["512 B", "12 KB", "640.0 MB", "1.13 GB"]);
    assert.deepEqual([formatDuration(45), formatDuration(185), formatDuration(3720)], ["45s", "3m 05s", "1h 02m"]);
  });
});
