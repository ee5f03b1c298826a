import assert from "node:assert/strict";
import { GaussianRandom } from "../../../src/server/engines/image/gaussian-random";
import { EulerScheduler } from "../../../src/server/engines/image/scheduler/euler-scheduler";
import { parseSchedulerConfig, sigmaSchedule } from "../../../src/server/engines/image/scheduler/scheduler-config";

// Stable Diffusion 1.x's scheduler_config.json.
const sd = { _class_name: "EulerDiscreteScheduler", beta_start: 0.00085, beta_end: 0.012, beta_schedule: "scaled_linear", num_train_timesteps: 1000, steps_offset: 1 };

describe("Euler schedulers", () => {
  it("computes diffusers' sigmas and timesteps for Stable Diffusion's config", () => {
    const schedule = sigmaSchedule(parseSchedulerConfig({ ...sd, timestep_spacing: "linspace" }), 20);
    assert.equal(schedule.timesteps[0], 999);
    assert.equal(schedule.timesteps.at(-1), 0);
    assert.equal(schedule.sigmas.length, 21);
    assert.ok(Math.abs(schedule.sigmas[0]! - 14.6146) < 1e-3, String(schedule.sigmas[0]));
    assert.ok(Math.abs(schedule.sigmas[19]! - 0.0292) < 1e-3, String(schedule.sigmas[19]));
    assert.equal(schedule.sigmas[20], 0);
    assert.equal(schedule.initNoiseSigma, schedule.sigmas[0]);
  });

  it("spaces timesteps as 'leading' and 'trailing' do", () => {
    const leading = sigmaSchedule(parseSchedulerConfig({ ...sd, timestep_spacing: "leading" }), 10);
    assert.deepEqual(leading.timesteps, [901, 801, 701, 601, 501, 401, 301, 201, 101, 1]);
    assert.ok(Math.abs(leading.initNoiseSigma - Math.sqrt(leading.sigmas[0]! ** 2 + 1)) < 1e-9);
    const trailing = sigmaSchedule(parseSchedulerConfig({ ...sd, timestep_spacing: "trailing" }), 10);
    assert.deepEqual(trailing.timesteps, [999, 899, 799, 699, 599, 499, 399, 299, 199, 99]);
  });

  it("rejects configs it cannot follow", () => {
    assert.throws(() => parseSchedulerConfig({ ...sd, prediction_type: "sample" }), /prediction_type/);
  });

  for (const prediction_type of ["epsilon", "v_prediction"]) {
    it(`applies guidance while stepping exactly as guiding first, then stepping (${prediction_type})`, () => {
      const config = parseSchedulerConfig({ ...sd, prediction_type });
      const uncond = Float32Array.from([0.1, -0.4, 0.9, 0.3]);
      const cond = Float32Array.from([0.5, 0.2, -0.7, 0.3]);
      const pair = Float32Array.from([...uncond, ...cond]);
      const scale = 7.5;
      const f = Math.fround; // the scheduler's arithmetic is float32
      const guided = Float32Array.from(uncond, (u, i) => f(u + f(scale * f(cond[i]! - u))));
      const start = new GaussianRandom(3).normals(4, 10);
      const fused = Float32Array.from(start);
      const twoPass = Float32Array.from(start);
      new EulerScheduler(config, 10).step(pair, 2, fused, new GaussianRandom(1), { guidanceScale: scale });
      new EulerScheduler(config, 10).step(guided, 2, twoPass, new GaussianRandom(1));
      assert.deepEqual(fused, twoPass);
      assert.notDeepEqual(fused, start, "the step moved the sample");
    });
  }

  for (const className of ["EulerDiscreteScheduler", "EulerAncestralDiscreteScheduler"]) {
    it(`${className} lands on the clean sample when the model predicts the noise exactly`, () => {
      const clean = Float32Array.from([0.5, -0.25, 1, 0]);
      const scheduler = new EulerScheduler(parseSchedulerConfig({ ...sd, _class_name: className }), 8);
      const random = new GaussianRandom(9);
      const sample = random.normals(clean.length, scheduler.initNoiseSigma);
      scheduler.timesteps.forEach((_, step) => {
        const sigmaNow = currentSigma(scheduler, step);
        const predicted = sample.map((x, i) => (x - clean[i]!) / sigmaNow);
        scheduler.step(predicted, step, sample, random);
      });
      sample.forEach((x, i) => assert.ok(Math.abs(x - clean[i]!) < 1e-4, `${x} vs ${clean[i]}`));
    });
  }
});

/** sigma at a step, recovered from the input scale 1/sqrt(sigma^2 + 1). */
function currentSigma(scheduler: EulerScheduler, step: number): number {
  return Math.sqrt(1 / scheduler.inputScale(step) ** 2 - 1);
}
