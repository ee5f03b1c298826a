import assert from "node:assert/strict";
import { ServerMetrics, type DatabaseGauges } from "../../../src/server/metrics/server-metrics";

/** The samples of `name` in `text`, as labels (in the order written) and value. */
function samples(text: string, name: string): { labels: string; value: number }[] {
  return [...text.matchAll(new RegExp(`^${name}\\{(.*)\\} (\\S+)$`, "gm"))].map((m) => ({ labels: m[1]!, value: Number(m[2]) }));
}

describe("GET /metrics: a replica's database pools", () => {
  it("splits each pool's connections into idle and active, which sum to its total, and counts its queued queries apart", async () => {
    const metrics = new ServerMetrics();
    const database: DatabaseGauges = {
      up: true,
      pools: { main: { total: 5, idle: 2, waiting: 3 }, admissions: { total: 2, idle: 2, waiting: 0 } },
      usageQueue: 0,
      keyCacheEntries: 0,
    };
    metrics.setSources({ inFlight: () => 0, queues: () => ({ text: 0, images: 0 }), upstreams: () => [], database: () => database });
    const text = await metrics.text();
    assert.deepEqual(samples(text, "wisp_database_pool_connections"), [
      { labels: 'pool="main",state="idle"', value: 2 },
      { labels: 'pool="main",state="active"', value: 3 },
      { labels: 'pool="admissions",state="idle"', value: 2 },
      { labels: 'pool="admissions",state="active"', value: 0 },
    ]);
    for (const [pool, p] of Object.entries(database.pools)) {
      const sum = samples(text, "wisp_database_pool_connections").filter((s) => s.labels.startsWith(`pool="${pool}"`)).reduce((n, s) => n + s.value, 0);
      assert.equal(sum, p.total, `sum by pool: ${pool}'s connections`);
    }
    assert.deepEqual(samples(text, "wisp_database_pool_waiting_requests"), [
      { labels: 'pool="main"', value: 3 },
      { labels: 'pool="admissions"', value: 0 },
    ]);
  });

  it("has no pool samples without a database", async () => {
    const text = await new ServerMetrics().text();
    assert.deepEqual(samples(text, "wisp_database_pool_connections"), []);
    assert.deepEqual(samples(text, "wisp_database_pool_waiting_requests"), []);
  });
});
