// The balancer configuration the team docs give (docs/team-server/haproxy.cfg) keeps clients off
// /metrics and /metrics.json, which Prometheus scrapes at each replica. The server routes a path
// with its letters percent-encoded (/%6detrics) as the path itself, so the rule must match that too.
import assert from "node:assert/strict";
import { startBalancer, type Balancer } from "../harness/haproxy";
import { startServer, type TestServer } from "../server/server-fixture";

describe("the team balancer's /metrics rule (docs/team-server/haproxy.cfg)", function () {
  this.timeout(120_000);
  let server: TestServer;
  let balancer: Balancer;

  before(async () => {
    server = await startServer();
    const replica = server.origin.replace(/^http:\/\//, "");
    balancer = await startBalancer([replica, replica, replica]);
  });

  after(async () => {
    await balancer?.stop();
    await server?.close();
  });

  it("refuses /metrics and /metrics.json through the balancer however the path is written, and passes the rest", async () => {
    // The server itself answers each of these as /metrics or /metrics.json.
    const spellings = ["/metrics", "/metrics.json", "/%6detrics", "/%6Detrics", "/m%65trics.json", "/metrics%2ejson"];
    for (const path of spellings) assert.equal((await fetch(`${server.origin}${path}`)).status, 200, `the server answers ${path}`);
    for (const path of spellings) {
      const response = await fetch(`${balancer.origin}${path}`);
      assert.equal(response.status, 403, `${path} through the balancer`);
      assert.doesNotMatch(await response.text(), /wisp_build_info|wisp_requests_total|"sequences"/, path);
    }
    assert.equal((await fetch(`${balancer.origin}/health`)).status, 200, "the rest still goes through");
  });
});
