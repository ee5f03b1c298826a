import assert from "node:assert/strict";
import type { Pool } from "pg";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { withPoolClient } from "../../src/server/store/postgres/pool-client";
import { openPool } from "../../src/server/store/postgres/postgres-store";
import { freshDatabase } from "./support/shared-cluster";

describe("a connection checked out of the pool", function () {
  this.timeout(60_000);
  let pool: Pool;
  let other: Pool;
  before(async () => {
    const { url } = await freshDatabase();
    pool = openPool(parseDatabaseUrl(url), 2, () => undefined);
    other = openPool(parseDatabaseUrl(url), 1, () => undefined);
  });
  after(async () => {
    await pool?.end();
    await other?.end();
  });

  it("ends between two statements (the database shutting down) without ending the process; the pool goes on with a new one", async () => {
    // Without a listener on the checked-out connection, the server's "terminating connection" would
    // be an 'error' event nobody hears: an uncaught exception, as a replica died in the faults test.
    const uncaught: Error[] = [];
    let heard: () => void = () => undefined;
    const onUncaught = (error: Error) => {
      uncaught.push(error);
      heard();
    };
    const mochaListeners = process.listeners("uncaughtException");
    process.removeAllListeners("uncaughtException");
    process.on("uncaughtException", onUncaught);
    let pid = 0;
    try {
      await withPoolClient(pool, async (client) => {
        pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
        // The server's goodbye arrives while no statement runs on this connection, then it closes.
        const ended = new Promise<void>((resolve) => {
          client.once("end", () => resolve());
          heard = resolve;
        });
        await other.query("SELECT pg_terminate_backend($1)", [pid]);
        await ended;
      });
    } finally {
      process.removeListener("uncaughtException", onUncaught);
      for (const listener of mochaListeners) process.on("uncaughtException", listener);
    }
    assert.deepEqual(uncaught.map((e) => e.message), []);
    const { rows } = await pool.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    assert.notEqual(rows[0]!.pid, pid, "the broken connection was closed, not given back");
  });
});
