// A throwaway PostgreSQL cluster from Debian's packages (scripts/setup/team-server.sh installs
// them): initdb into a temporary folder as an unprivileged user (PostgreSQL refuses to run as
// root), on a free loopback port with its socket in that folder, removed by destroy(). Logins
// over TCP need passwords (scram-sha-256), as on a real server.
import { execFile, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "./free-port";

const run = promisify(execFile);

/** Where initdb and pg_ctl are: $WISP_PG_BIN, else the newest /usr/lib/postgresql/N/bin. */
export function postgresBin(): string {
  if (process.env.WISP_PG_BIN) return process.env.WISP_PG_BIN;
  const base = "/usr/lib/postgresql";
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, "bin/initdb"))).sort((a, b) => Number(b) - Number(a)) : [];
  if (versions.length === 0) throw new Error("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb): run bash scripts/setup/team-server.sh, or set WISP_PG_BIN");
  return join(base, versions[0]!, "bin");
}

/** Root runs the server as `postgres` (made by Debian's package) or `nobody`; anyone else as themselves. */
function serverUser(): { name: string; uid: number; gid: number } | undefined {
  if (userInfo().uid !== 0) return undefined;
  for (const name of ["postgres", "nobody"]) {
    const id = spawnSync("id", ["-u", name], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", name], { encoding: "utf8" });
    if (id.status === 0) return { name, uid: Number(id.stdout.trim()), gid: Number(gid.stdout.trim()) };
  }
  throw new Error("running as root, and neither the postgres nor the nobody user exists to run PostgreSQL as");
}

export interface ClusterOptions {
  /** Settings passed to the server (-c name=value). */
  settings?: Record<string, string>;
}

export class PostgresCluster {
  /** The superuser, and the role and database wisp-server uses. */
  static readonly superuser = "wisp_super";
  readonly role = "wisp";
  readonly database = "wisp";
  readonly password = `pw-${Math.random().toString(36).slice(2)}`;

  private constructor(
    readonly dir: string,
    readonly port: number,
    private readonly bin: string,
    private readonly user: ReturnType<typeof serverUser>,
    private readonly settings: Record<string, string>,
    private readonly superPassword: string,
  ) {}

  /** initdb, start, and a role and database for wisp-server. */
  static async start(options: ClusterOptions = {}): Promise<PostgresCluster> {
    const bin = postgresBin();
    const user = serverUser();
    const dir = mkdtempSync(join(tmpdir(), "wisp-pg-"));
    const superPassword = `super-${Math.random().toString(36).slice(2)}`;
    const cluster = new PostgresCluster(dir, await freePort(), bin, user, { fsync: "off", synchronous_commit: "off", full_page_writes: "off", ...options.settings }, superPassword);
    try {
      if (user) chownSync(dir, user.uid, user.gid);
      const pwfile = join(dir, "superuser-password");
      writeFileSync(pwfile, superPassword, { mode: 0o600 });
      if (user) chownSync(pwfile, user.uid, user.gid);
      await cluster.as(join(bin, "initdb"), ["-D", cluster.dataDir, "-U", PostgresCluster.superuser, `--pwfile=${pwfile}`, "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync", "-E", "UTF8", "--locale=C"]);
      rmSync(pwfile);
      await cluster.startServer();
      await cluster.superQuery(`CREATE ROLE ${cluster.role} LOGIN PASSWORD '${cluster.password}'`);
      await cluster.superQuery(`CREATE DATABASE ${cluster.database} OWNER ${cluster.role}`);
      return cluster;
    } catch (error) {
      await cluster.destroy();
      throw error;
    }
  }

  get dataDir(): string {
    return join(this.dir, "data");
  }

  /** The URL wisp-server is given (password included). */
  url(password = this.password, database = this.database): string {
    return `postgres://${this.role}:${encodeURIComponent(password)}@127.0.0.1:${this.port}/${database}`;
  }

  /** A new empty database owned by the wisp role, on the same server. */
  async createDatabase(name: string): Promise<string> {
    await this.superQuery(`CREATE DATABASE ${name} OWNER ${this.role}`);
    return this.url(this.password, name);
  }

  /** Runs SQL as wisp-server's role, in its database (or `database`). */
  async query<Row extends object = Record<string, unknown>>(sql: string, values: unknown[] = [], database = this.database): Promise<Row[]> {
    const client = new pg.Client({ connectionString: this.url(this.password, database) });
    await client.connect();
    try {
      return (await client.query<Row>(sql, values)).rows;
    } finally {
      await client.end();
    }
  }

  async stopServer(): Promise<void> {
    await this.as(join(this.bin, "pg_ctl"), ["-D", this.dataDir, "-m", "fast", "-w", "stop"]);
  }

  async startServer(): Promise<void> {
    const settings = Object.entries({ listen_addresses: "127.0.0.1", ...this.settings }).flatMap(([k, v]) => ["-c", `${k}=${v}`]);
    const options = ["-p", String(this.port), "-k", this.dir, ...settings].join(" ");
    await this.as(join(this.bin, "pg_ctl"), ["-D", this.dataDir, "-l", join(this.dir, "server.log"), "-o", options, "-w", "-t", "60", "start"]);
  }

  /** What the server logged (for a failing test's message). */
  log(): string {
    const file = join(this.dir, "server.log");
    return existsSync(file) ? readFileSync(file, "utf8") : "";
  }

  /**
   * Turns TLS on (connections without it are still taken), with a self-signed certificate made
   * out to `hostName`, as a Debian package's snakeoil one is; resolves with the certificate's file,
   * which a client names as sslrootcert to trust it.
   */
  async enableTls(hostName = "db.internal"): Promise<string> {
    const cert = join(this.dataDir, "server.crt");
    const key = join(this.dataDir, "server.key");
    await run("openssl", ["req", "-new", "-x509", "-days", "2", "-nodes", "-subj", `/CN=${hostName}`, "-keyout", key, "-out", cert], { timeout: 60_000 });
    if (this.user) for (const file of [cert, key]) chownSync(file, this.user.uid, this.user.gid);
    await this.superQuery("ALTER SYSTEM SET ssl = on");
    await this.superQuery("SELECT pg_reload_conf()");
    const copy = join(this.dir, "root.crt");
    writeFileSync(copy, readFileSync(cert));
    return copy;
  }

  /** Stops the server (at once) and removes every file. */
  async destroy(): Promise<void> {
    if (existsSync(join(this.dataDir, "postmaster.pid"))) {
      await this.as(join(this.bin, "pg_ctl"), ["-D", this.dataDir, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
    }
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }

  /** destroy(), for a process that is exiting (nothing asynchronous runs then). */
  destroySync(): void {
    if (existsSync(join(this.dataDir, "postmaster.pid"))) {
      const [command, args] = this.user ? ["runuser", ["-u", this.user.name, "--", join(this.bin, "pg_ctl"), "-D", this.dataDir, "-m", "immediate", "-w", "stop"]] : [join(this.bin, "pg_ctl"), ["-D", this.dataDir, "-m", "immediate", "-w", "stop"]];
      spawnSync(command, args as string[], { timeout: 60_000 });
    }
    rmSync(this.dir, { recursive: true, force: true, maxRetries: 3 });
  }

  private async superQuery(sql: string): Promise<void> {
    const client = new pg.Client({ host: "127.0.0.1", port: this.port, user: PostgresCluster.superuser, password: this.superPassword, database: "postgres" });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  /** Runs a PostgreSQL program as the server's user. */
  private async as(program: string, args: string[]): Promise<void> {
    const [command, all] = this.user ? ["runuser", ["-u", this.user.name, "--", program, ...args]] : [program, args];
    try {
      await run(command, all, { cwd: this.dir, timeout: 120_000 });
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${program.split("/").at(-1)} ${args[0] ?? ""} failed: ${e.stderr || e.stdout || e.message}`);
    }
  }
}
