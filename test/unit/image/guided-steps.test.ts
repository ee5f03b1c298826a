import assert from "node:assert/strict";
import { guidedSteps } from "../../../src/server/engines/image/guided-steps";

describe("guided steps of a sampling run", () => {
  it("guides every step without an interval, and those inside (low, high] with one", () => {
    assert.deepEqual(guidedSteps([14.6, 2.9, 0.93, 0.03], undefined), [true, true, true, true]);
    assert.deepEqual(guidedSteps([14.6, 2.9, 0.93, 0.03], [0.8, 5]), [false, true, true, false]);
    assert.deepEqual(guidedSteps([5, 0.8], [0.8, 5]), [true, false], "high is inside, low is not");
  });

  it("guides the one step nearest to the interval, in log sigma, when none is inside", () => {
    // The shipped model's 1- and 2-step runs with its interval (0.8, 5].
    assert.deepEqual(guidedSteps([0.029], [0.8, 5]), [true]);
    assert.deepEqual(guidedSteps([14.6, 0.029], [0.8, 5]), [true, false], "14.6 is 1.1 from 5 in log sigma, 0.029 is 3.3 from 0.8");
    assert.deepEqual(guidedSteps([14.6, 0.5], [0.8, 5]), [false, true]);
    assert.deepEqual(guidedSteps([14.6, 2.9, 0.93, 0.03], [100, 200]), [true, false, false, false]);
    assert.deepEqual(guidedSteps([], [0.8, 5]), []);
  });
});
