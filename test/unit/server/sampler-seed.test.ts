import assert from "node:assert/strict";
import { samplerSeed } from "../../../src/server/engines/text/sampling";

describe("samplerSeed: a request's seed as the sampler's 32-bit seed", () => {
  it("keeps seeds from 0 to 2^32 - 2 as they were, choice i on seed + i", () => {
    for (const seed of [0, 1, 42, 2 ** 31, 2 ** 32 - 2]) assert.equal(samplerSeed(seed, 0), seed);
    assert.equal(samplerSeed(7, 3), 10);
  });

  it("gives negative seeds and seeds of 2^32 and above their own values, never llama.cpp's random seed", () => {
    const seeds = [0, 1, 2, -1, -2, -3, -(2 ** 31), 2 ** 32, 2 ** 32 + 1, 2 ** 33, 2 ** 32 - 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER];
    const mapped = seeds.map((seed) => samplerSeed(seed, 0));
    assert.equal(new Set(mapped).size, seeds.length, String(mapped));
    for (const value of mapped) assert.ok(Number.isInteger(value) && value >= 0 && value < 0xffffffff, String(value));
    assert.notEqual(samplerSeed(-1, 1), samplerSeed(-1, 0));
  });
});
