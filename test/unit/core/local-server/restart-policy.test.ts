import assert from "node:assert/strict";
import { RestartPolicy } from "../../../../src/core/local-server/restart-policy";

describe("RestartPolicy", () => {
  it("allows max restarts, each after a longer pause, then gives up", () => {
    const policy = new RestartPolicy(3, 60_000, 1000);
    assert.deepEqual(policy.onExit(0), { attempt: 1, delayMs: 1000 });
    assert.deepEqual(policy.onExit(5_000), { attempt: 2, delayMs: 2000 });
    assert.deepEqual(policy.onExit(10_000), { attempt: 3, delayMs: 3000 });
    assert.equal(policy.onExit(15_000), undefined);
  });

  it("forgets exits older than the window: a server that crashes now and then always comes back", () => {
    const policy = new RestartPolicy(2, 60_000, 1000);
    assert.equal(policy.onExit(0)?.attempt, 1);
    assert.equal(policy.onExit(30_000)?.attempt, 2);
    assert.equal(policy.onExit(70_000)?.attempt, 2, "the first exit left the window");
    assert.equal(policy.onExit(200_000)?.attempt, 1);
  });

  it("starts over after a reset (the user started it again)", () => {
    const policy = new RestartPolicy(1, 60_000, 1000);
    assert.equal(policy.onExit(0)?.attempt, 1);
    assert.equal(policy.onExit(1), undefined);
    policy.reset();
    assert.equal(policy.onExit(2)?.attempt, 1);
  });
});
