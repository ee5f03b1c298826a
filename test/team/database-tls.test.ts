import assert from "node:assert/strict";
import { parseDatabaseUrl } from "../../src/server/store/postgres/database-url";
import { openPool } from "../../src/server/store/postgres/postgres-store";
import { TempDirs } from "../harness/temp-dirs";
import { freshDatabase } from "./support/shared-cluster";
import { wispServer } from "./support/team";

/** Whether a connection made with `url` (and `env`, as the server reads it) is encrypted. */
async function encrypted(url: string, env: NodeJS.ProcessEnv = {}): Promise<boolean> {
  const pool = openPool(parseDatabaseUrl(url, env), 1, () => undefined);
  try {
    const { rows } = await pool.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()");
    return rows[0].ssl as boolean;
  } finally {
    await pool.end();
  }
}

describe("wisp-server on a PostgreSQL database over TLS, with the sslmode psql takes", function () {
  this.timeout(300_000);
  const temp = new TempDirs();
  let url = "";
  /** The certificate the database shows (self-signed, made out to db.internal: not 127.0.0.1). */
  let rootCert = "";
  /** A home with no ~/.postgresql/root.crt, as a new replica machine's. */
  let home = "";
  before(async () => {
    const made = await freshDatabase();
    url = made.url;
    rootCert = await made.cluster.enableTls();
    home = temp.make("home");
  });
  after(() => temp.removeAll());

  it("connects, encrypted and with no warning, where psql does: require and prefer with a self-signed certificate, verify-ca with its authority's, PGSSLMODE", async () => {
    for (const [query, env] of [
      ["?sslmode=require", {}],
      ["?sslmode=prefer", {}],
      [`?sslmode=verify-ca&sslrootcert=${encodeURIComponent(rootCert)}`, {}],
      ["", { PGSSLMODE: "require" }],
      ["", { PGSSLMODE: "verify-ca", PGSSLROOTCERT: rootCert }],
    ] as const) {
      const run = await wispServer(["db", "migrate", "--database", url + query], { HOME: home, ...env });
      assert.equal(run.code, 0, `${query || JSON.stringify(env)}: ${run.stderr}`);
      // node-postgres' own reading of these modes warns at every start, over a dozen lines.
      assert.equal(run.stderr, "", query || JSON.stringify(env));
      assert.equal(await encrypted(url + query, { HOME: home, ...env }), true, query || JSON.stringify(env));
    }
    assert.equal(await encrypted(url), false, "without sslmode nothing asks for TLS");
  });

  it("refuses a certificate verify-full or verify-ca does not accept in one line that says why and what to write", async () => {
    const unsigned = await wispServer(["db", "status", "--database", `${url}?sslmode=verify-full`], { HOME: home });
    assert.equal(unsigned.code, 1);
    assert.match(unsigned.stderr, /^wisp-server: the database at postgres:\/\/wisp:\*\*\*@127\.0\.0\.1:\d+\/wisp_\d+: its TLS certificate is signed by no authority wisp-server trusts, so sslmode=verify-full refuses it \(self-signed certificate\): give that authority's certificate with sslrootcert=FILE, or write sslmode=require, which encrypts without checking it, as psql does\n$/);
    const otherName = await wispServer(["db", "status", "--database", `${url}?sslmode=verify-full&sslrootcert=${encodeURIComponent(rootCert)}`], { HOME: home });
    assert.equal(otherName.code, 1);
    assert.match(otherName.stderr, /its TLS certificate is made out to another host name, so sslmode=verify-full refuses it \(.*\): connect by a name the certificate has, or write sslmode=verify-ca, which leaves the name unchecked, as psql does\n$/);
    const noAuthority = await wispServer(["db", "status", "--database", `${url}?sslmode=verify-ca`], { HOME: home });
    assert.notEqual(noAuthority.code, 0);
    assert.match(noAuthority.stderr, /^wisp-server: --database's sslmode=verify-ca needs the certificate of the authority that signed the database's: sslrootcert=FILE \(.*\/\.postgresql\/root\.crt is not there\)\n$/);
    const unknown = await wispServer(["db", "status", "--database", `${url}?sslmode=required`], { HOME: home });
    assert.match(unknown.stderr, /sslmode must be one of disable, allow, prefer, require, verify-ca, verify-full, no-verify, not required\n$/);
    for (const run of [unsigned, otherName, noAuthority, unknown]) assert.ok(!run.stderr.includes("pw-"), "the password is never printed");
  });
});
