import assert from "node:assert/strict";
import { GaussianRandom } from "../../../src/server/engines/image/gaussian-random";
import { RgbPostprocess, toRgbJs } from "../../../src/server/engines/image/rgb-postprocess";

describe("RgbPostprocess", () => {
  const postprocess = new RgbPostprocess(RgbPostprocess.compile());

  it("maps [-1, 1] to bytes as diffusers does: scaled, clamped and interleaved", () => {
    const red = [-2, -1, 0, 1, 1.5, Number.NaN, 0.5, -0.5, 0.25, -0.25, 0.999, -0.999, 1e30, -1e30, 0.1, -0.1];
    const planes = Float32Array.from([...red, ...Array(16).fill(-1), ...Array(16).fill(1)]);
    const rgb = postprocess.toRgb(planes, 16);
    const expectedRed = [0, 0, 128, 255, 255, 0, 191, 64, 159, 96, 255, 0, 255, 0, 140, 115];
    assert.deepEqual([...rgb.filter((_, i) => i % 3 === 0)], expectedRed);
    assert.deepEqual([...rgb.filter((_, i) => i % 3 === 1)], Array(16).fill(0));
    assert.deepEqual([...rgb.filter((_, i) => i % 3 === 2)], Array(16).fill(255));
    assert.deepEqual(rgb, toRgbJs(planes, 16));
  });

  it("rounds exact halves to the even byte", () => {
    const f = Math.fround;
    // Values whose scaled float32 lands exactly on k + 0.5 for an even k (and so also an odd k + 1 above).
    const ties: [number, number][] = [];
    for (let k = 0; k < 254 && ties.length < 16; k += 2) {
      const x = f((k + 0.5) / 127.5 - 1);
      if (f(f(x + 1) * 127.5) === k + 0.5) ties.push([x, k]);
    }
    assert.ok(ties.length >= 4, `found ${ties.length} exact ties`);
    while (ties.length < 16) ties.push(ties[0]!);
    const planes = Float32Array.from([...ties.map(([x]) => x), ...Array(32).fill(0)]);
    const red = postprocess.toRgb(planes, 16).filter((_, i) => i % 3 === 0);
    assert.deepEqual([...red], ties.map(([, k]) => k));
    assert.deepEqual(toRgbJs(planes, 16).filter((_, i) => i % 3 === 0), red);
  });

  it("gives the same bytes as the JavaScript conversion for whole images, and a fresh array each time", () => {
    for (const pixels of [64 * 64, 256 * 256, 512 * 384]) {
      const planes = new GaussianRandom(pixels).normals(3 * pixels, 0.7);
      const rgb = postprocess.toRgb(planes, pixels);
      assert.deepEqual(rgb, toRgbJs(planes, pixels), `${pixels} pixels`);
      const again = postprocess.toRgb(new Float32Array(3 * pixels), pixels);
      assert.deepEqual(rgb, toRgbJs(planes, pixels), "an earlier result is not overwritten");
      assert.ok(again.every((v) => v === 128));
    }
  });

  it("takes sizes that are not a multiple of 16 pixels, and refuses a planes/pixels mismatch", () => {
    const planes = Float32Array.from({ length: 3 * 9 }, (_, i) => (i / 27) * 2 - 1);
    assert.deepEqual(postprocess.toRgb(planes, 9), toRgbJs(planes, 9));
    assert.throws(() => postprocess.toRgb(planes, 10), /expected 30 values/);
  });
});
