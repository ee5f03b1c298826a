// What the database store costs and what replicas give, measured in one run on one machine: a
// throwaway PostgreSQL cluster, wisp-server processes in front of a fast scripted engine (its own
// process: 12 tokens at once), and HAProxy with the docs' configuration.
//   1. first token: today's server (files) against a replica on the database, rounds of one request
//      each, interleaved; with --rate-limit too (then each request is admitted by the database);
//   2. requests/s: 16 clients in a closed loop against the file server, one replica directly, one
//      replica behind HAProxy, and three replicas behind HAProxy;
//   3. revocation: from the revoke's answer on one replica until the other two refuse the key;
//   4. rate-limit accuracy: keys limited to 60 and 300 requests a minute, many more sent at once
//      through the balancer to the three replicas.
// Run with `npx tsx bench/team-server.bench.ts` (or `npm run bench`; needs `npm run build`, and
// PostgreSQL and HAProxy: bash scripts/setup/team-server.sh). WISP_BENCH_BASELINE=DIR adds the
// wisp-server of another checkout (built, e.g. an earlier commit's) to the first two comparisons.
import http from "node:http";
import { createApiKey, startLocalServer, type LocalServer } from "../scripts/start/local-server";
import { freePort } from "../test/harness/free-port";
import { startBalancer, type Balancer } from "../test/harness/haproxy";
import { PostgresCluster } from "../test/harness/postgres-cluster";
import { TempDirs } from "../test/harness/temp-dirs";
import { MODEL, root, startEngine, wispServer, type Engine } from "../test/team/support/team";
import { sseEvents } from "./engine/stream-timing";
import { percentile, printTable } from "./typing/table";

const TTFT_ROUNDS = 300;
const LOAD = { clients: 16, warmMs: 1_000, measureMs: 6_000, passes: 2 };
const REVOCATIONS = 30;

const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
const temp = new TempDirs();
const body = JSON.stringify({ model: MODEL, messages: [{ role: "user", content: "hi" }], stream: true });

interface Target {
  name: string;
  origin: string;
  key: string;
}

/** One streamed chat answer: ms to its first content, ms to its end, and the HTTP status. */
function timedChat(target: Target, key = target.key): Promise<{ status: number; ttft: number; total: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    let first = 0;
    let buffer = "";
    const request = http.request(`${target.origin}/v1/chat/completions`, { method: "POST", agent, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" } }, (response) => {
      response.setEncoding("utf8");
      response.on("data", (text: string) => {
        if (first) return;
        const { events, rest } = sseEvents(buffer + text);
        buffer = rest;
        if (events.some((e) => e.includes('"content":"w'))) first = performance.now();
      });
      response.on("end", () => resolve({ status: response.statusCode!, ttft: first - t0, total: performance.now() - t0 }));
      response.on("error", reject);
    });
    request.on("error", reject);
    request.end(body);
  });
}

const statusOf = (origin: string, key: string) =>
  new Promise<number>((resolve, reject) => {
    http.get(`${origin}/v1/models`, { agent, headers: { authorization: `Bearer ${key}` } }, (response) => {
      response.resume();
      response.on("end", () => resolve(response.statusCode!));
    }).on("error", reject);
  });

/** Requests/s of `clients` clients each sending one request after another. */
async function throughput(target: Target): Promise<{ rps: number; p50: number; failed: number }> {
  const start = performance.now();
  const measureFrom = start + LOAD.warmMs;
  const end = measureFrom + LOAD.measureMs;
  const totals: number[] = [];
  let failed = 0;
  await Promise.all(
    Array.from({ length: LOAD.clients }, async () => {
      while (performance.now() < end) {
        const sent = performance.now();
        const result = await timedChat(target);
        if (sent >= measureFrom && performance.now() <= end) {
          if (result.status === 200) totals.push(result.total);
          else failed++;
        }
      }
    }),
  );
  return { rps: (totals.length * 1000) / LOAD.measureMs, p50: percentile(totals, 0.5), failed };
}

const median = (xs: number[]) => percentile(xs, 0.5);

const cluster = await PostgresCluster.start({ settings: { fsync: "on", synchronous_commit: "on", full_page_writes: "on" } });
const engine: Engine = await startEngine(12, 0);
const servers: LocalServer[] = [];
const balancers: Balancer[] = [];
const log = { write: () => true };
const upstreamArgs = ["--no-local-models", "--upstream", `fast=${engine.fast},key-env=WISP_BENCH_UPSTREAM_KEY`];
const env = { ...process.env, WISP_BENCH_UPSTREAM_KEY: "upstream-key" };

const baseline = process.env.WISP_BENCH_BASELINE;

async function server(name: string, args: string[], database: boolean, port?: number, from = root): Promise<{ origin: string; port: number; dataDir: string }> {
  const dataDir = temp.make(`bench-${name}`);
  const p = port ?? (await freePort());
  const started = await startLocalServer({ root: from, port: p, modelsDir: temp.make(`bench-${name}-models`), dataDir, log, extraArgs: [...upstreamArgs, ...args], env: database ? { ...env, WISP_DATABASE_URL: cluster.url() } : env });
  servers.push(started);
  return { origin: started.baseUrl.replace(/\/v1$/, ""), port: p, dataDir };
}

try {
  const limitArgs = ["--rate-limit", "requests=100000000"];
  const files = await server("files", [], false);
  const filesLimited = await server("files-limited", limitArgs, false);
  const replica1 = await server("replica1", [], true);
  const replicaLimited = await server("replica-limited", limitArgs, true);
  const replica2 = await server("replica2", [], true);
  const replica3 = await server("replica3", [], true);
  const fileKey = createApiKey(root, files.dataDir, "bench");
  const fileLimitedKey = createApiKey(root, filesLimited.dataDir, "bench");
  const dbKey = (await wispServer(["keys", "create", "--name", "bench"], { WISP_DATABASE_URL: cluster.url() })).stdout.trim().split("\n")[1]!;
  const one = await startBalancer([replica1, replica1, replica1].map((r) => `127.0.0.1:${r.port}`), 1000);
  const three = await startBalancer([replica1, replica2, replica3].map((r) => `127.0.0.1:${r.port}`), 1000);
  balancers.push(one, three);

  // 1. First token, interleaved rounds.
  const before = baseline === undefined ? undefined : await server("baseline", [], false, undefined, baseline);
  const beforeTarget: Target[] = before ? [{ name: "files, the baseline's server", origin: before.origin, key: createApiKey(baseline!, before.dataDir, "bench") }] : [];
  const ttftTargets: Target[] = [
    ...beforeTarget,
    { name: "files", origin: files.origin, key: fileKey },
    { name: "database", origin: replica1.origin, key: dbKey },
    { name: "files, --rate-limit", origin: filesLimited.origin, key: fileLimitedKey },
    { name: "database, --rate-limit", origin: replicaLimited.origin, key: dbKey },
  ];
  const ttft = new Map<string, number[]>(ttftTargets.map((t) => [t.name, []]));
  for (let round = -20; round < TTFT_ROUNDS; round++) {
    // Every other round in the opposite order: no target always follows the same one.
    for (const target of round % 2 === 0 ? ttftTargets : [...ttftTargets].reverse()) {
      const { ttft: ms, status } = await timedChat(target);
      if (status !== 200) throw new Error(`${target.name}: ${status}`);
      if (round >= 0) ttft.get(target.name)!.push(ms);
    }
  }
  const added = (a: string, b: string) => median(ttft.get(b)!.map((x, i) => x - ttft.get(a)![i]!));
  console.log(`\nFirst token through wisp-server, files against the database (${TTFT_ROUNDS} rounds of one request each, interleaved; the engine answers at once)`);
  printTable(
    ["store", "p50 ms", "p99 ms", "added, median of rounds (ms)"],
    [
      ...beforeTarget.map((t) => [`${t.name} (${baseline})`, percentile(ttft.get(t.name)!, 0.5), percentile(ttft.get(t.name)!, 0.99), "-"]),
      ["files (today's server)", percentile(ttft.get("files")!, 0.5), percentile(ttft.get("files")!, 0.99), before ? `${added(beforeTarget[0]!.name, "files").toFixed(2)} vs the baseline` : "-"],
      ["database (a replica)", percentile(ttft.get("database")!, 0.5), percentile(ttft.get("database")!, 0.99), added("files", "database").toFixed(2)],
      ["files, --rate-limit", percentile(ttft.get("files, --rate-limit")!, 0.5), percentile(ttft.get("files, --rate-limit")!, 0.99), "-"],
      ["database, --rate-limit", percentile(ttft.get("database, --rate-limit")!, 0.5), percentile(ttft.get("database, --rate-limit")!, 0.99), added("files, --rate-limit", "database, --rate-limit").toFixed(2)],
    ],
    [0, 2, 2],
  );

  // 2. Requests/s, closed loop, each target in turn, passes in opposite orders.
  const loadTargets: Target[] = [
    { name: "today's server (files), direct", origin: files.origin, key: fileKey },
    ...beforeTarget.map((t) => ({ ...t, name: "the baseline's server (files), direct" })),
    { name: "1 replica (database), direct", origin: replica1.origin, key: dbKey },
    { name: "1 replica behind HAProxy", origin: one.origin, key: dbKey },
    { name: "3 replicas behind HAProxy", origin: three.origin, key: dbKey },
  ];
  const load = new Map<string, { rps: number[]; p50: number[]; failed: number }>(loadTargets.map((t) => [t.name, { rps: [], p50: [], failed: 0 }]));
  for (let pass = 0; pass < LOAD.passes; pass++) {
    for (const target of pass % 2 === 0 ? loadTargets : [...loadTargets].reverse()) {
      const r = await throughput(target);
      const entry = load.get(target.name)!;
      entry.rps.push(r.rps);
      entry.p50.push(r.p50);
      entry.failed += r.failed;
    }
  }
  const rpsOf = (name: string) => load.get(name)!.rps.reduce((a, b) => a + b, 0) / LOAD.passes;
  const base = rpsOf(loadTargets[0]!.name);
  console.log(`\nRequests/s, ${LOAD.clients} clients in a closed loop, ${LOAD.measureMs / 1000} s per target, ${LOAD.passes} passes (mean), streamed answers of 12 tokens`);
  printTable(
    ["target", "requests/s", "vs today's server", "p50 ms", "failed"],
    loadTargets.map((t) => [t.name, rpsOf(t.name), `${(rpsOf(t.name) / base).toFixed(2)}x`, median(load.get(t.name)!.p50), load.get(t.name)!.failed]),
    [0, 0, 0, 1, 0],
  );

  // 3. Revocation reaching the other replicas.
  const token = (await wispServer(["admin-token", "new"], { WISP_DATABASE_URL: cluster.url() })).stdout.trim().split("\n").at(-1)!;
  const login = await fetch(`${replica1.origin}/login?token=${token}`, { redirect: "manual" });
  const cookie = login.headers.get("set-cookie")!.split(";")[0]!.split("=")[1]!;
  const consoleHeaders = (r: { origin: string; port: number }) => ({ cookie: `wisp_console_${r.port}=${cookie}`, origin: r.origin, "content-type": "application/json" });
  const csrf = ((await (await fetch(`${replica2.origin}/console/api/session`, { headers: consoleHeaders(replica2) })).json()) as { csrf_token: string }).csrf_token;
  const reach: number[] = [];
  const revokeMs: number[] = [];
  for (let i = 0; i < REVOCATIONS; i++) {
    const created = (await (await fetch(`${replica2.origin}/console/api/keys`, { method: "POST", headers: { ...consoleHeaders(replica2), "x-wisp-csrf": csrf }, body: JSON.stringify({ name: `revoke-${i}` }) })).json()) as { key: { id: string }; secret: string };
    for (const r of [replica1, replica2, replica3]) if ((await statusOf(r.origin, created.secret)) !== 200) throw new Error("a new key was refused");
    const sent = performance.now();
    const revoked = await fetch(`${replica2.origin}/console/api/keys/${created.key.id}/revoke`, { method: "POST", headers: { ...consoleHeaders(replica2), "x-wisp-csrf": csrf }, body: "{}" });
    if (revoked.status !== 200) throw new Error(`revoke: ${revoked.status}`);
    const answered = performance.now();
    revokeMs.push(answered - sent);
    const times = await Promise.all(
      [replica1, replica3].map(async (r) => {
        while ((await statusOf(r.origin, created.secret)) !== 401) {
          if (performance.now() - answered > 5_000) throw new Error("not revoked after 5 s");
        }
        return performance.now() - answered;
      }),
    );
    reach.push(Math.max(...times));
  }
  console.log(`\nRevocation reaching every replica (${REVOCATIONS} keys, each checked on all three first, revoked in the console of one; the other two asked in a loop until they refuse it)`);
  printTable(
    ["measure", "p50 ms", "p99 ms", "max ms"],
    [
      ["the revoke's answer", percentile(revokeMs, 0.5), percentile(revokeMs, 0.99), Math.max(...revokeMs)],
      ["then refused by both others", percentile(reach, 0.5), percentile(reach, 0.99), Math.max(...reach)],
    ],
    [0, 2, 2, 2],
  );

  // 4. Rate-limit accuracy across the three replicas (they start again with a limit).
  const accuracy: (string | number)[][] = [];
  for (const limit of [60, 300]) {
    for (const s of servers.splice(2)) await s.process.stop();
    const ports = [replica1.port, replicaLimited.port, replica2.port, replica3.port];
    for (const [i, port] of ports.entries()) await server(`limited-${limit}-${i}`, ["--rate-limit", `requests=${limit}`], true, port);
    const admitted: number[] = [];
    for (let trial = 0; trial < 3; trial++) {
      const key = (await wispServer(["keys", "create", "--name", `limit-${limit}-${trial}`], { WISP_DATABASE_URL: cluster.url() })).stdout.trim().split("\n")[1]!;
      const sent = limit * 2.5;
      let ok = 0;
      let next = 0;
      await Promise.all(
        Array.from({ length: 24 }, async () => {
          while (next++ < sent) if ((await timedChat({ name: "", origin: three.origin, key })).status === 200) ok++;
        }),
      );
      admitted.push(ok);
    }
    accuracy.push([`${limit} a minute, ${limit * 2.5} sent at once (24 clients), 3 trials`, admitted.join(", "), `${Math.max(...admitted.map((a) => Math.abs(a - limit)))} (${((100 * Math.max(...admitted.map((a) => Math.abs(a - limit)))) / limit).toFixed(1)}%)`]);
  }
  console.log("\nRate-limit accuracy: one key, three replicas behind HAProxy");
  printTable(["limit", "admitted", "largest error"], accuracy);
} finally {
  for (const b of balancers) await b.stop();
  for (const s of servers) await s.process.stop();
  await engine.process.stop();
  await cluster.destroy();
  temp.removeAll();
}
