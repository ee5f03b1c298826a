import assert from "node:assert/strict";
import { GaussianRandom } from "../../../src/server/engines/image/gaussian-random";
import { GuidedStepKernel, guidedPairStepJs } from "../../../src/server/engines/image/scheduler/guided-step-kernel";

describe("GuidedStepKernel", () => {
  const module = GuidedStepKernel.compile();

  for (const [name, coefficients] of [
    ["epsilon", { guidance: 7.5, fromOutput: -0.8123, fromSample: 0, scale: 0.0683 }],
    ["v-prediction", { guidance: 4, fromOutput: -0.31, fromSample: 0.0217, scale: 0.5 }],
    ["to the VAE", { guidance: 12.25, fromOutput: -0.0291, fromSample: 0, scale: 1 / 0.18215 }],
  ] as const) {
    it(`gives the same bits as the JavaScript step (${name}), for sizes up to several memory pages`, () => {
      const kernel = new GuidedStepKernel(module);
      for (const n of [4, 4096, 65536]) {
        const random = new GaussianRandom(n);
        const output = random.normals(2 * n);
        const start = random.normals(n, 14.6);
        const [sample, next] = kernel.allocate([n, 2 * n], 2 * n);
        sample.set(start);
        assert.equal(kernel.guidedPairStep(output, sample, next, coefficients), true);
        const expectedSample = Float32Array.from(start);
        const expectedNext = new Float32Array(2 * n);
        guidedPairStepJs(output, expectedSample, expectedNext, coefficients);
        assert.deepEqual(sample, expectedSample, `sample, n = ${n}`);
        assert.deepEqual(next, expectedNext, `next, n = ${n}`);
        assert.notDeepEqual(sample, Float32Array.from(start), "the step moved the sample");
      }
    });
  }

  it("declines arrays outside its memory or of a shape it does not take, changing nothing", () => {
    const kernel = new GuidedStepKernel(module);
    const coefficients = { guidance: 7.5, fromOutput: -0.5, fromSample: 0, scale: 1 };
    const [sample, next] = kernel.allocate([8, 16], 16);
    const output = new GaussianRandom(1).normals(16);
    assert.equal(kernel.guidedPairStep(output, new Float32Array(8), next, coefficients), false);
    assert.equal(kernel.guidedPairStep(output, sample, new Float32Array(16), coefficients), false);
    assert.equal(kernel.guidedPairStep(output.subarray(0, 12), sample, next, coefficients), false);
    const [odd, oddNext] = kernel.allocate([6, 12], 12);
    assert.equal(kernel.guidedPairStep(output.subarray(0, 12), odd, oddNext, coefficients), false, "not a multiple of 4 lanes");
    assert.deepEqual(odd, new Float32Array(6));
  });
});
