// A team's deployment, as docs/team-server.md describes it, with every part real: a PostgreSQL
// cluster, wisp-server replicas (dist/server through bin/wisp-server.js, each its own process)
// sharing it, and HAProxy in front of them. The inference engine behind the replicas is a fast
// scripted OpenAI-style server (the narrow seam: its answers are known).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import OpenAI from "openai";
import { startLocalServer, type LocalServer } from "../../../scripts/start/local-server";
import { freePort } from "../../harness/free-port";
import { startBalancer, type Balancer } from "../../harness/haproxy";
import type { PostgresCluster } from "../../harness/postgres-cluster";
import { spawnGroup, type GroupProcess } from "../../harness/process-group";
import { TempDirs } from "../../harness/temp-dirs";
import { freshDatabase } from "./shared-cluster";

export const root = join(import.meta.dirname, "..", "..", "..");
/** The engine's quick model (12 tokens) and its slow one (40 tokens at 10 a second). */
export const MODEL = "scripted-chat";
export const SLOW_MODEL = "scripted-slow";
export const UPSTREAM_KEY = "upstream-key";
const UPSTREAM_KEY_ENV = "WISP_TEAM_UPSTREAM_KEY";

/** The scripted engine (support/engine.ts) in a process of its own. */
export interface Engine {
  fast: string;
  slow: string;
  process: GroupProcess;
}

export async function startEngine(tokens: number, tokensPerSecond: number): Promise<Engine> {
  const group = spawnGroup(process.execPath, ["--import", "tsx", join(import.meta.dirname, "engine.ts"), UPSTREAM_KEY, String(tokens), String(tokensPerSecond)], { cwd: root, stdio: ["ignore", "pipe", "inherit"] });
  const urls = await new Promise<{ fast: string; slow: string }>((resolve, reject) => {
    let out = "";
    group.child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (out.includes("\n")) resolve(JSON.parse(out.split("\n")[0]!) as { fast: string; slow: string });
    });
    void group.exited.then((code) => reject(new Error(`the scripted engine exited (${code})`)));
  });
  return { ...urls, process: group };
}

/** Runs `wisp-server ARGS` to its end; resolves with its exit code and output. */
export function wispServer(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  if (!existsSync(join(root, "dist/server/main.js"))) throw new Error("dist/server/main.js is missing: run `npm run build` first");
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, "bin/wisp-server.js"), ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

export class Replica {
  private server: LocalServer | undefined;
  private text = "";

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly team: Team,
    /** How far its wall clock is off the machine's, ms (support/skewed-clock.mjs); 0: not at all. */
    readonly clockSkewMs = 0,
  ) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  get pid(): number {
    return this.server!.process.child.pid!;
  }

  /** Everything it printed, across restarts. */
  output(): string {
    return this.text;
  }

  /** Starts (or starts again, on the same port) and resolves once it listens. */
  async start(): Promise<void> {
    this.server = await startLocalServer({
      root,
      port: this.port,
      modelsDir: this.team.temp.make(`${this.name}-models`),
      dataDir: this.team.temp.make(`${this.name}-data`),
      log: { write: (chunk) => (this.text += chunk.toString()) },
      extraArgs: ["--no-local-models", "--upstream", `fast=${this.team.engine.fast},key-env=${UPSTREAM_KEY_ENV}`, "--upstream", `slow=${this.team.engine.slow},key-env=${UPSTREAM_KEY_ENV}`, ...this.team.args],
      env: { ...process.env, ...this.clockEnv(), WISP_DATABASE_URL: this.team.databaseUrl, [UPSTREAM_KEY_ENV]: UPSTREAM_KEY },
    });
  }

  private clockEnv(): NodeJS.ProcessEnv {
    if (this.clockSkewMs === 0) return {};
    const preload = `--import ${pathToFileURL(join(import.meta.dirname, "skewed-clock.mjs")).href}`;
    return { NODE_OPTIONS: [process.env.NODE_OPTIONS, preload].filter(Boolean).join(" "), WISP_TEST_CLOCK_SKEW_MS: String(this.clockSkewMs) };
  }

  /** Sends `signal` and resolves with the exit code (or signal name) once the process is gone. */
  async signal(signal: NodeJS.Signals): Promise<number | string> {
    const group = this.server!.process;
    group.child.kill(signal);
    return group.exited;
  }

  get exited(): Promise<number | string> {
    return this.server!.process.exited;
  }

  alive(): boolean {
    const child = this.server?.process.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  async stop(): Promise<void> {
    await this.server?.process.stop(2000);
  }
}

export interface TeamOptions {
  /** More wisp-server options for every replica. */
  args?: readonly string[];
  /** What the engine's quick model answers: this many tokens (default 12), this many a second (default: 0, at once). */
  tokens?: number;
  tokensPerSecond?: number;
  /** How often HAProxy checks each replica, ms. */
  checkMs?: number;
  /** How far each replica's wall clock is off, ms, in order (default: none is). */
  clockSkewMs?: readonly number[];
}

export class Team {
  readonly temp = new TempDirs();
  readonly replicas: Replica[] = [];
  /** The shared cluster, and this team's own database on it. */
  cluster!: PostgresCluster;
  databaseUrl!: string;
  private database!: string;
  engine!: Engine;
  balancer!: Balancer;
  readonly args: readonly string[];
  private readonly clockSkewMs: readonly number[];

  private constructor(options: TeamOptions) {
    this.args = options.args ?? [];
    this.clockSkewMs = options.clockSkewMs ?? [];
  }

  /** A database of the shared cluster, the engine, three replicas started together on it (empty), and HAProxy. */
  static async start(options: TeamOptions = {}): Promise<Team> {
    const team = new Team(options);
    try {
      ({ cluster: team.cluster, name: team.database, url: team.databaseUrl } = await freshDatabase());
      team.engine = await startEngine(options.tokens ?? 12, options.tokensPerSecond ?? 0);
      for (let i = 1; i <= 3; i++) team.replicas.push(new Replica(`replica${i}`, await freePort(), team, team.clockSkewMs[i - 1]));
      await Promise.all(team.replicas.map((r) => r.start()));
      team.balancer = await startBalancer(
        team.replicas.map((r) => r.address),
        options.checkMs ?? 200,
      );
      return team;
    } catch (error) {
      await team.close();
      throw error;
    }
  }

  /** Runs SQL in this team's database. */
  query<Row extends object = Record<string, unknown>>(sql: string, values: unknown[] = []): Promise<Row[]> {
    return this.cluster.query<Row>(sql, values, this.database);
  }

  /** `wisp-server keys create --name NAME` on the database: the new key's secret. */
  async createKey(name: string): Promise<{ id: string; secret: string }> {
    const result = await wispServer(["keys", "create", "--name", name], { WISP_DATABASE_URL: this.databaseUrl });
    const [first, secret] = result.stdout.trim().split("\n");
    const id = /created (key_\w+)/.exec(first ?? "")?.[1];
    if (result.code !== 0 || !id || !secret) throw new Error(`keys create failed: ${result.stdout}${result.stderr}`);
    return { id, secret };
  }

  /** An OpenAI client through the balancer (or straight to one replica). */
  client(secret: string, replica?: Replica): OpenAI {
    return new OpenAI({ baseURL: replica ? `${replica.origin}/v1` : this.balancer.baseUrl, apiKey: secret, maxRetries: 0, timeout: 60_000 });
  }

  /** Everything the replicas printed, for a failing test's message. */
  outputs(): string {
    return this.replicas.map((r) => `--- ${r.name}\n${r.output().slice(-3000)}`).join("\n");
  }

  async close(): Promise<void> {
    await this.balancer?.stop();
    await Promise.all(this.replicas.map((r) => r.stop()));
    await this.engine?.process.stop();
    this.temp.removeAll();
  }
}
