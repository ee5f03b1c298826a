import assert from "node:assert/strict";
import { GaussianRandom } from "../../../src/server/engines/image/gaussian-random";

/** Standard normal CDF (Abramowitz-Stegun 7.1.26 erf, error under 1.5e-7). */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * z);
  const erf = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-z * z);
  return x >= 0 ? (1 + erf) / 2 : (1 - erf) / 2;
}

describe("GaussianRandom", () => {
  it("gives the same numbers for the same seed and different ones for another seed", () => {
    assert.deepEqual(new GaussianRandom(42).normals(64), new GaussianRandom(42).normals(64));
    assert.notDeepEqual(new GaussianRandom(42).normals(64), new GaussianRandom(43).normals(64));
  });

  it("draws uniforms in [0, 1) with the right mean", () => {
    const random = new GaussianRandom(7);
    let sum = 0;
    for (let i = 0; i < 100_000; i++) {
      const u = random.uniform();
      assert.ok(u >= 0 && u < 1, String(u));
      sum += u;
    }
    assert.ok(Math.abs(sum / 100_000 - 0.5) < 0.005, String(sum / 100_000));
  });

  it("draws standard normals: moments, CDF within 0.004 everywhere, and both tails", () => {
    const n = 400_000;
    const values = new GaussianRandom(11).normals(n);
    let mean = 0;
    let square = 0;
    let fourth = 0;
    for (const x of values) {
      mean += x;
      square += x * x;
      fourth += x ** 4;
    }
    assert.ok(Math.abs(mean / n) < 0.01, `mean ${mean / n}`);
    assert.ok(Math.abs(square / n - 1) < 0.01, `variance ${square / n}`);
    assert.ok(Math.abs(fourth / n - 3) < 0.1, `fourth moment ${fourth / n}`);
    // Kolmogorov-Smirnov distance against the normal CDF; the 99.9% bound for this n is 0.003.
    const sorted = Float64Array.from(values).sort();
    let distance = 0;
    for (let i = 0; i < n; i += 97) distance = Math.max(distance, Math.abs((i + 0.5) / n - normalCdf(sorted[i]!)));
    assert.ok(distance < 0.004, `KS distance ${distance}`);
    // The tail beyond the ziggurat's base (3.44) is drawn by a separate path: it must be there.
    const beyond = values.filter((x) => Math.abs(x) > 3.5).length / n;
    assert.ok(Math.abs(beyond - 2 * (1 - normalCdf(3.5))) < 2e-4, `P(|x| > 3.5) = ${beyond}`);
    assert.ok(values.some((x) => x > 3.5) && values.some((x) => x < -3.5));
  });
});
