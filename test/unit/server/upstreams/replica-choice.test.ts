import assert from "node:assert/strict";
import { Upstream } from "../../../../src/server/upstreams/upstream";
import { UpstreamRegistry, type UpstreamRoute } from "../../../../src/server/upstreams/upstream-registry";

describe("choosing a replica", () => {
  const registry = new UpstreamRegistry([], {}, () => false);
  after(() => registry.dispose());
  const replica = (name: string, outstanding: number, healthy = true) => {
    const u = new Upstream({ name, baseUrl: `http://${name}/v1` }, undefined, registry.transport, { refreshMs: 1000, backoffMs: 10, checkTimeoutMs: 100 });
    u.outstanding = outstanding;
    u.healthy = healthy;
    return u;
  };
  const route = (...replicas: Upstream[]): UpstreamRoute => ({ id: "m", upstreamModel: "m", listed: { id: "m" }, replicas });

  it("takes the healthy replica with the fewest requests in flight", () => {
    const [a, b, c] = [replica("a", 3), replica("b", 1), replica("c", 0, false)];
    for (let i = 0; i < 5; i++) assert.equal(registry.pick(route(a, b, c), new Set()), b);
  });

  it("lets replicas with as many in flight take turns", () => {
    const [a, b] = [replica("a", 2), replica("b", 2)];
    const picks = Array.from({ length: 4 }, () => registry.pick(route(a, b), new Set())!.name);
    assert.deepEqual(new Set(picks), new Set(["a", "b"]));
    assert.equal(picks.filter((p) => p === "a").length, 2);
  });

  it("skips the replicas a request already tried, and has none once all are tried or out", () => {
    const [a, b] = [replica("a", 0), replica("b", 5)];
    assert.equal(registry.pick(route(a, b), new Set([a])), b);
    assert.equal(registry.pick(route(a, b), new Set([a, b])), undefined);
    assert.equal(registry.pick(route(replica("x", 0, false)), new Set()), undefined);
  });
});
