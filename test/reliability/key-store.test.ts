import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { KeyStore } from "../../src/server/auth/key-store";
import { seededRandom } from "./fuzz-cases";
import { root, startReliabilityServer } from "./reliability-server";
import { record, scaled } from "./report";

const run = promisify(execFile);

interface Churned {
  created: Map<string, string>;
  revoked: Set<string>;
}

/** Runs key-churn.ts on `dataDir` and SIGKILLs it after `afterMs`; returns what it said it did. */
function churnUntilKilled(dataDir: string, afterMs: number): Promise<Churned> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", path.join(root, "test/reliability/key-churn.ts"), dataDir], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const churned: Churned = { created: new Map(), revoked: new Set() };
    let pending = "";
    let errors = "";
    let changes = 0;
    child.stdout.on("data", (bytes: Buffer) => {
      pending += bytes.toString();
      const lines = pending.split("\n");
      pending = lines.pop()!;
      for (const line of lines) {
        const change = JSON.parse(line) as { created?: string; secret?: string; revoked?: string };
        if (change.created) churned.created.set(change.created, change.secret!);
        if (change.revoked) churned.revoked.add(change.revoked);
        // The clock starts once it is changing keys (tsx start-up is not the point).
        if (++changes === 1) setTimeout(() => child.kill("SIGKILL"), afterMs);
      }
    });
    child.stderr.on("data", (bytes: Buffer) => (errors += bytes.toString()));
    child.on("exit", (code, signal) => (signal === "SIGKILL" ? resolve(churned) : reject(new Error(`churn exited ${code}: ${errors}`))));
  });
}

describe("the key store under SIGKILL and concurrent writers", function () {
  this.timeout(300_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "wisp-keystore-crash-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("restarts with a valid store after kills mid-write: nothing half-written, revoked keys never work again", async () => {
    const dataDir = path.join(dir, "killed");
    const random = seededRandom(7);
    const kills = scaled(8, 30);
    const all: Churned = { created: new Map(), revoked: new Set() };
    const failures: string[] = [];
    for (let k = 0; k < kills; k++) {
      const churned = await churnUntilKilled(dataDir, Math.floor(random() * 300));
      for (const [id, secret] of churned.created) all.created.set(id, secret);
      for (const id of churned.revoked) all.revoked.add(id);
      let stored: { keys: { id: string; revoked?: number }[] };
      try {
        stored = JSON.parse(readFileSync(path.join(dataDir, "keys.json"), "utf8"));
      } catch (error) {
        failures.push(`after kill ${k}: keys.json is not valid JSON (${(error as Error).message})`);
        continue;
      }
      const byId = new Map(stored.keys.map((key) => [key.id, key]));
      for (const id of all.created.keys()) if (!byId.has(id)) failures.push(`after kill ${k}: created key ${id} is missing`);
      for (const id of all.revoked) if (!byId.get(id)?.revoked) failures.push(`after kill ${k}: revoked key ${id} is active again`);
    }
    // The server starts on the store the kills left, and judges every key by it.
    const server = await startReliabilityServer({ dataDir });
    let refused = 0;
    let accepted = 0;
    try {
      for (const [id, secret] of all.created) {
        const response = await fetch(`${server.baseUrl}/models`, { headers: { authorization: `Bearer ${secret}` } });
        await response.text();
        if (all.revoked.has(id)) {
          if (response.status === 401) refused++;
          else failures.push(`revoked key ${id} got ${response.status}`);
        } else if (response.status === 200) accepted++;
      }
    } finally {
      await server.stop();
    }
    record({
      category: "key store SIGKILL",
      cases: kills,
      failures: failures.length,
      notes: `${all.created.size} keys created, ${all.revoked.size} revoked across ${kills} kills; after restart revoked refused ${refused}/${all.revoked.size}, active accepted ${accepted}`,
    });
    assert.deepEqual(failures.slice(0, 10), []);
    assert.equal(refused, all.revoked.size);
    assert.ok(accepted >= 1, "the last created key works");
  });

  it("keeps every key when the server and the CLI create keys at the same moment", async () => {
    const dataDir = path.join(dir, "concurrent");
    const store = new KeyStore(dataDir);
    const cli = Array.from({ length: 3 }, (_, i) =>
      run(process.execPath, ["--import", "tsx", path.join(root, "src/server/main.ts"), "keys", "create", "--name", `cli-${i}`, "--data-dir", dataDir], { cwd: root }),
    );
    const here = await Promise.all(Array.from({ length: 40 }, (_, i) => store.create(`here-${i}`)));
    await Promise.all(cli);
    const revoked = await Promise.all(here.slice(0, 10).map((k) => store.revoke(k.key.id)));
    const keys = await store.list();
    const lost = 43 - keys.length + (10 - revoked.filter(Boolean).length);
    record({ category: "key store concurrent writers", cases: 53, failures: lost, notes: `${keys.length} keys after 43 concurrent creates (3 from the CLI), ${keys.filter((k) => k.revoked).length} of 10 revoked` });
    assert.equal(keys.length, 43);
    assert.equal(keys.filter((k) => k.revoked).length, 10);
    for (const { secret } of here.slice(10)) assert.ok(await store.verify(secret));
    for (const { secret } of here.slice(0, 10)) assert.equal(await store.verify(secret), undefined);
  });
});
