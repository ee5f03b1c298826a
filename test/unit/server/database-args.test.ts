import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseCommand } from "../../../src/server/cli-args";
import { isBusy, isUnavailable, startupFailure } from "../../../src/server/store/postgres/pg-errors";
import { parseDatabaseUrl } from "../../../src/server/store/postgres/database-url";
import { TempDirs } from "../../harness/temp-dirs";

const URL_ = "postgres://wisp:s3cret@db.internal:5432/wisp";

describe("--database", () => {
  it("comes from the flag, else WISP_DATABASE_URL; a replica on one drains on SIGTERM, a server without one stops at once", () => {
    const flag = parseCommand(["--database", URL_], {});
    assert.equal(flag.kind === "serve" && flag.config.database, URL_);
    assert.deepEqual(flag.kind === "serve" && [flag.config.drainDelayMs, flag.config.drainGraceMs], [5_000, 30_000]);
    const env = parseCommand([], { WISP_DATABASE_URL: URL_ });
    assert.equal(env.kind === "serve" && env.config.database, URL_);
    const none = parseCommand([], {});
    assert.ok(none.kind === "serve" && none.config.database === undefined);
    assert.deepEqual(none.kind === "serve" && [none.config.drainDelayMs, none.config.drainGraceMs], [0, 0]);
    assert.deepEqual(flag.kind === "serve" && [flag.config.keyCacheMaxAgeMs, flag.config.keyListenerHeartbeatMs], [60_000, 5_000]);
    const tuned = parseCommand(["--database", URL_, "--drain-delay", "1.5", "--drain-grace", "0", "--key-cache-grace", "90", "--usage-queue", "500", "--database-pool", "4", "--key-cache-max-age", "30", "--key-listener-heartbeat", "0.5"], {});
    assert.ok(tuned.kind === "serve");
    assert.deepEqual(
      [tuned.config.drainDelayMs, tuned.config.drainGraceMs, tuned.config.keyCacheGraceMs, tuned.config.usageQueueMax, tuned.config.databasePoolSize, tuned.config.keyCacheMaxAgeMs, tuned.config.keyListenerHeartbeatMs],
      [1_500, 0, 90_000, 500, 4, 30_000, 500],
    );
    assert.throws(() => parseCommand(["--database", URL_, "--key-listener-heartbeat", "0"], {}), /--key-listener-heartbeat must be a number of seconds above 0/);
  });

  it("comes from the config file's \"database\" last: the flag and WISP_DATABASE_URL override it", () => {
    const temp = new TempDirs();
    try {
      const file = join(temp.make("config"), "wisp.json");
      writeFileSync(file, JSON.stringify({ database: URL_ }));
      const fromFile = parseCommand(["--config", file], {});
      assert.equal(fromFile.kind === "serve" && fromFile.config.database, URL_);
      const other = "postgres://wisp:other@db2/wisp";
      const env = parseCommand(["--config", file], { WISP_DATABASE_URL: other });
      assert.equal(env.kind === "serve" && env.config.database, other);
      assert.deepEqual(parseCommand(["keys", "list", "--config", file, "--data-dir", "/srv/wisp"], {}), { kind: "keys-list", store: { dataDir: "/srv/wisp", database: URL_ } });
      writeFileSync(file, JSON.stringify({ database: "postgres://wisp:s3cret@[oops/wisp" }));
      assert.throws(() => parseCommand(["--config", file], {}), (error: Error) => !error.message.includes("s3cret") && /--database is not a URL/.test(error.message));
    } finally {
      temp.removeAll();
    }
  });

  it("is taken by the keys, admin-token and db commands, and db needs one", () => {
    const keys = parseCommand(["keys", "revoke", "key_1", "--database", URL_, "--data-dir", "/srv/wisp"], {});
    assert.deepEqual(keys, { kind: "keys-revoke", id: "key_1", store: { dataDir: "/srv/wisp", database: URL_ } });
    assert.deepEqual(parseCommand(["db", "status"], { WISP_DATABASE_URL: URL_ }), { kind: "db-status", database: URL_ });
    assert.deepEqual(parseCommand(["db", "import", "--data-dir", "/srv/wisp"], { WISP_DATABASE_URL: URL_ }), { kind: "db-import", database: URL_, dataDir: "/srv/wisp" });
    assert.throws(() => parseCommand(["db", "migrate"], {}), /db migrate needs --database URL \(or WISP_DATABASE_URL\)/);
    assert.throws(() => parseCommand(["db", "import"], { WISP_DATABASE_URL: URL_ }), /db import needs --data-dir DIR/);
    assert.equal(parseCommand(["admin-token", "new", "--database", URL_], {}).kind, "admin-token-new");
  });

  it("says what a keys revoke or db command lacks, rather than calling it unknown", () => {
    assert.throws(() => parseCommand(["keys", "revoke"], {}), /^Error: keys revoke needs the key's ID \(see: wisp-server keys list\)$/);
    assert.throws(() => parseCommand(["db"], { WISP_DATABASE_URL: URL_ }), /^Error: db needs a command: migrate, status or import$/);
    assert.throws(() => parseCommand(["db"], {}), /^Error: db needs a command: migrate, status or import$/);
  });

  it("is checked before anything runs, in one line that never repeats the URL, and shown only without its password", () => {
    for (const bad of ["postgres://wisp:s3cret@[oops/wisp", "not a url s3cret", "http://wisp:s3cret@db/wisp", "postgres://wisp:s3cret@/wisp"]) {
      assert.throws(
        () => parseCommand(["--database", bad], {}),
        (error: Error) => !error.message.includes("s3cret") && !error.message.includes("\n") && /--database/.test(error.message),
        bad,
      );
    }
    assert.equal(parseDatabaseUrl(URL_).redacted, "postgres://wisp:***@db.internal:5432/wisp");
    assert.equal(parseDatabaseUrl("postgres://wisp@db/wisp?password=s3cret&sslmode=require").redacted, "postgres://wisp@db/wisp");
    assert.equal(parseDatabaseUrl("postgresql:///wisp?host=/run/postgresql").redacted, "postgresql:///wisp?host=%2Frun%2Fpostgresql");
  });

  it("takes libpq's socket forms as psql does: a user with no host (wisp@/wisp?host=DIR), and no host at all where PGHOST names one", () => {
    assert.equal(parseDatabaseUrl("postgresql://wisp@/wisp?host=/run/postgresql", {}).redacted, "postgresql://wisp@/wisp?host=%2Frun%2Fpostgresql");
    assert.equal(parseDatabaseUrl("postgresql://wisp:s3cret@/wisp", { PGHOST: "db.internal" }).redacted, "postgresql://wisp:***@/wisp");
    assert.equal(parseCommand(["--database", "postgresql:///wisp"], { PGHOST: "/run/postgresql" }).kind, "serve");
    assert.throws(() => parseCommand(["--database", "postgresql://wisp@/wisp"], {}), /^Error: --database names no host \(.*; a socket's folder as \?host=\/run\/postgresql, or PGHOST\)$/);
  });

  it("says that a list of hosts (libpq's failover form) is not taken, rather than resolving db1,db2 or blaming the password", () => {
    for (const url of ["postgres://wisp:s3cret@db1:5432,db2:5432/wisp", "postgresql://wisp:s3cret@db1,db2/wisp?target_session_attrs=read-write"]) {
      assert.throws(() => parseDatabaseUrl(url, {}), (error: Error) => /^--database names several hosts \(libpq's failover list, HOST1,HOST2\), which node-postgres does not take: give one address that always reaches the primary/.test(error.message) && !error.message.includes("s3cret"), url);
    }
    assert.equal(parseDatabaseUrl("postgres://wisp:a,b@db/wisp", {}).redacted, "postgres://wisp:***@db/wisp", "a comma in the password is no list");
  });

  it("says where sslmode prefer or allow meets a database without TLS that node-postgres cannot fall back as psql does", () => {
    for (const mode of ["prefer", "allow"]) {
      const url = parseDatabaseUrl(`${URL_}?sslmode=${mode}`, {});
      const failure = startupFailure(new Error("The server does not support SSL connections"), url);
      assert.equal(
        failure.message,
        `the database at postgres://wisp:***@db.internal:5432/wisp takes no TLS connections, which its sslmode=${mode} asks for (node-postgres cannot fall back to an unencrypted one as psql does with prefer): turn ssl on in the database, or write sslmode=disable`,
      );
    }
  });

  it("says that a password's @ : / ? # is written percent-encoded, where one unencoded breaks the URL", () => {
    // Generated passwords, as a password manager or a cloud console makes them, pasted as they are.
    for (const password of ["Zq#8vX", "a?b=c", "p@ss:w/rd", "12/cd", "5432#x"]) {
      assert.throws(
        () => parseDatabaseUrl(`postgres://wisp:${password}@db.internal:5432/wisp`, {}),
        (error: Error) => !error.message.includes(password) && error.message.includes("a password with @ : / ? # % or a space in it is written percent-encoded: %40 %3A %2F %3F %23 %25 %20"),
        password,
      );
      assert.equal(parseDatabaseUrl(`postgres://wisp:${encodeURIComponent(password)}@db.internal:5432/wisp`, {}).redacted, "postgres://wisp:***@db.internal:5432/wisp");
    }
  });

  it("tells a database that went away from a statement that is wrong", () => {
    for (const away of [{ code: "ECONNREFUSED" }, { code: "57P01" }, { code: "08006" }, new Error("Connection terminated unexpectedly"), new Error("Connection terminated due to connection timeout")]) {
      assert.ok(isUnavailable(away), JSON.stringify(away));
      assert.ok(!isBusy(away), JSON.stringify(away));
    }
    // Waiting for a free slot of the pool, a statement cut by a timeout: busy, not away.
    for (const busy of [new Error("timeout exceeded when trying to connect"), new Error("Query read timeout"), { code: "57014" }]) {
      assert.ok(isBusy(busy), JSON.stringify(busy));
      assert.ok(!isUnavailable(busy), JSON.stringify(busy));
    }
    for (const wrong of [{ code: "42P01" }, { code: "23505" }, new Error("syntax error at or near")]) assert.ok(!isUnavailable(wrong), JSON.stringify(wrong));
  });
});
