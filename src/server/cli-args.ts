// Parses wisp-server's command line (node:util parseArgs, no dependency).
import { readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { isVisibleName, KEY_NAME_RULE } from "../core/base/visible-name";
import { parseAllowedHosts, type AllowedHosts } from "../core/net/host-allowed";
import { DEFAULT_CONFIG } from "./app";
import type { ServerConfig } from "./deps";
import { parseDatabaseUrl } from "./store/postgres/database-url";
import { checkUniqueNames, parseConfigFile, parseRateLimit, parseUpstreamFlag, upstreamAuthorization, type FileConfig } from "./upstreams/upstream-config";

export const USAGE = `usage:
  wisp-server --version
  wisp-server [--host 127.0.0.1] [--port 8765] [--allowed-hosts NAME,.DOMAIN|all]
              [--models-dir DIR] [--data-dir DIR]
              [--threads N] [--threads-batch N] [--parallel N] [--ctx-size N]
              [--max-queue N] [--request-timeout SECONDS] [--no-prefix-reuse]
              [--input-lookup N] [--no-native-step] [--no-line-candidates] [--no-own-line]
              [--upstream NAME=URL[,key-env=VAR][,models=a,b]]... [--no-local-models]
              [--rate-limit requests=N,tokens=N] [--config wisp.json]
              [--database postgres://USER:PASSWORD@HOST:PORT/DB] [--database-pool N]
              [--key-cache-grace SECONDS] [--key-cache-max-age SECONDS]
              [--key-listener-heartbeat SECONDS] [--usage-queue N]
              [--drain-delay SECONDS] [--drain-grace SECONDS]
              [--login-link-lifetime SECONDS]
  wisp-server keys create --name NAME [--data-dir DIR | --database URL]
  wisp-server keys list [--data-dir DIR | --database URL]
  wisp-server keys revoke ID [--data-dir DIR | --database URL]
  wisp-server admin-token new [--data-dir DIR | --database URL]
  wisp-server db migrate|status [--database URL]
  wisp-server db import --data-dir DIR [--database URL]
  wisp-server models pull NAME|OWNER/REPO/FILE.gguf|URL [--models-dir DIR] [--mirror BASE]
  wisp-server models presets
--database defaults to $WISP_DATABASE_URL (then the config file's "database"); without one,
everything is kept in files in --data-dir.
--allowed-hosts (default: $WISP_ALLOWED_HOSTS): the names besides localhost and IP addresses that
requests may give as Host (.example.com: it and its subdomains; all: any). On a loopback --host
nothing else is answered; on another one every name is while none is given.`;

/** Where a command's keys and tokens are: files in dataDir, or the database when one is named. */
export interface StoreTarget {
  dataDir: string;
  database?: string;
}

export type Command =
  | { kind: "serve"; config: ServerConfig }
  | { kind: "keys-create"; store: StoreTarget; name: string }
  | { kind: "keys-list"; store: StoreTarget }
  | { kind: "keys-revoke"; store: StoreTarget; id: string }
  | { kind: "admin-token-new"; store: StoreTarget }
  | { kind: "db-migrate" | "db-status"; database: string }
  | { kind: "db-import"; database: string; dataDir: string }
  | { kind: "models-pull"; spec: string; modelsDir: string; mirror?: string }
  | { kind: "models-presets" }
  | { kind: "help" }
  | { kind: "version" };

function positiveInt(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got '${value}'`);
  return n;
}

/** A TCP port; 0 lets the system pick a free one. */
function port(value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535 || value.trim() === "") throw new Error(`--port must be a port number from 1 to 65535 (0: any free port), got '${value}'`);
  return n;
}

/** Seconds given for a duration, as ms (0 allowed). */
function seconds(name: string, value: string | undefined, fallbackMs: number): number {
  if (value === undefined) return fallbackMs;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || value.trim() === "") throw new Error(`--${name} must be a number of seconds, got '${value}'`);
  return Math.round(n * 1000);
}

/** A duration that must be more than 0 (a timer that fires at once would spin), as ms. */
function positiveSeconds(name: string, value: string | undefined, fallbackMs: number): number {
  const ms = seconds(name, value, fallbackMs);
  if (ms < 1) throw new Error(`--${name} must be a number of seconds above 0, got '${value}'`);
  return ms;
}

export function parseCommand(argv: string[], env: Record<string, string | undefined> = process.env): Command {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      host: { type: "string" },
      port: { type: "string" },
      "allowed-hosts": { type: "string" },
      "models-dir": { type: "string" },
      "data-dir": { type: "string" },
      threads: { type: "string" },
      "threads-batch": { type: "string" },
      parallel: { type: "string" },
      "ctx-size": { type: "string" },
      "max-queue": { type: "string" },
      "request-timeout": { type: "string" },
      name: { type: "string" },
      "no-prefix-reuse": { type: "boolean" },
      "input-lookup": { type: "string" },
      "no-native-step": { type: "boolean" },
      "no-line-candidates": { type: "boolean" },
      "no-own-line": { type: "boolean" },
      mirror: { type: "string" },
      upstream: { type: "string", multiple: true },
      config: { type: "string" },
      "rate-limit": { type: "string" },
      "no-local-models": { type: "boolean" },
      database: { type: "string" },
      "database-pool": { type: "string" },
      "key-cache-grace": { type: "string" },
      "key-cache-max-age": { type: "string" },
      "key-listener-heartbeat": { type: "string" },
      "usage-queue": { type: "string" },
      "drain-delay": { type: "string" },
      "drain-grace": { type: "string" },
      "login-link-lifetime": { type: "string" },
      help: { type: "boolean", short: "h" },
      version: { type: "boolean", short: "v" },
    },
  });
  const home = path.join(os.homedir(), ".wisp");
  // WISP_DATA_DIR: the same default for the server and the extension (which reads the console's
  // admin token there).
  const dataDir = path.resolve(values["data-dir"] ?? (process.env.WISP_DATA_DIR || home));
  if (values.help) return { kind: "help" };
  if (values.version) return { kind: "version" };
  const file = values.config === undefined ? undefined : readConfigFile(values.config);
  // Checked here, before anything runs; a mistake is one line that never repeats the URL.
  const database = values.database ?? (env.WISP_DATABASE_URL || undefined) ?? file?.database;
  if (database !== undefined) parseDatabaseUrl(database, env);
  const store: StoreTarget = { dataDir, ...(database === undefined ? {} : { database }) };
  if (positionals[0] === "keys") {
    const [, action, id] = positionals;
    if (action === "create") {
      if (!values.name) throw new Error("keys create needs --name NAME");
      if (!isVisibleName(values.name)) throw new Error(`--name ${JSON.stringify(values.name)}: ${KEY_NAME_RULE}`);
      return { kind: "keys-create", store, name: values.name };
    }
    if (action === "list") return { kind: "keys-list", store };
    if (action === "revoke" && id) return { kind: "keys-revoke", store, id };
    if (action === "revoke") throw new Error("keys revoke needs the key's ID (see: wisp-server keys list)");
    throw new Error(`unknown keys command: ${positionals.slice(1).join(" ")}`);
  }
  if (positionals[0] === "admin-token") {
    if (positionals[1] === "new" && positionals.length === 2) return { kind: "admin-token-new", store };
    throw new Error(`unknown admin-token command: ${positionals.slice(1).join(" ")}`);
  }
  if (positionals[0] === "db") {
    const [, action, ...rest] = positionals;
    if (action === undefined) throw new Error("db needs a command: migrate, status or import");
    if (database === undefined) throw new Error(`db ${action ?? ""} needs --database URL (or WISP_DATABASE_URL)`);
    if ((action === "migrate" || action === "status") && rest.length === 0) return { kind: `db-${action}`, database };
    if (action === "import" && rest.length === 0) {
      if (values["data-dir"] === undefined) throw new Error("db import needs --data-dir DIR: the folder whose keys.json and usage/ to bring in");
      return { kind: "db-import", database, dataDir };
    }
    throw new Error(`unknown db command: ${positionals.slice(1).join(" ")}`);
  }
  const modelsDir = path.resolve(values["models-dir"] ?? path.join(home, "models"));
  if (positionals[0] === "models") {
    const [, action, spec, ...rest] = positionals;
    if (action === "pull" && spec && rest.length === 0) return { kind: "models-pull", spec, modelsDir, ...(values.mirror ? { mirror: values.mirror } : {}) };
    if (action === "pull") throw new Error("models pull needs one NAME or URL (see: wisp-server models presets)");
    if (action === "presets") return { kind: "models-presets" };
    throw new Error(`unknown models command: ${positionals.slice(1).join(" ")}`);
  }
  if (positionals.length > 0) throw new Error(`unknown command: ${positionals.join(" ")}`);
  const upstreams = [...(file?.upstreams ?? []), ...(values.upstream ?? []).map(parseUpstreamFlag)];
  checkUniqueNames(upstreams);
  // Here rather than when the registry reads them: by then the server has made its models and keys.
  for (const upstream of upstreams) upstreamAuthorization(upstream, env);
  const localModels = values["no-local-models"] ? false : (file?.localModels ?? true);
  if (!localModels && upstreams.length === 0) throw new Error("--no-local-models needs at least one --upstream");
  return {
    kind: "serve",
    config: {
      ...DEFAULT_CONFIG,
      host: values.host ?? DEFAULT_CONFIG.host,
      allowedHosts: allowedHosts(values["allowed-hosts"], env),
      ...(env.WISP_LAUNCH_ID ? { launchId: env.WISP_LAUNCH_ID } : {}),
      port: port(values.port, DEFAULT_CONFIG.port),
      modelsDir,
      dataDir,
      threads: positiveInt("threads", values.threads, DEFAULT_CONFIG.threads),
      threadsBatch: positiveInt("threads-batch", values["threads-batch"], DEFAULT_CONFIG.threadsBatch),
      parallel: positiveInt("parallel", values.parallel, DEFAULT_CONFIG.parallel),
      contextSize: positiveInt("ctx-size", values["ctx-size"], DEFAULT_CONFIG.contextSize),
      maxQueue: values["max-queue"] === "0" ? 0 : positiveInt("max-queue", values["max-queue"], DEFAULT_CONFIG.maxQueue),
      prefixReuse: !values["no-prefix-reuse"],
      nativeStep: !values["no-native-step"],
      lineCandidates: !values["no-line-candidates"],
      ownLine: !values["no-own-line"],
      inputLookup: values["input-lookup"] === "0" ? 0 : positiveInt("input-lookup", values["input-lookup"], DEFAULT_CONFIG.inputLookup),
      requestTimeoutMs: 1000 * positiveInt("request-timeout", values["request-timeout"], DEFAULT_CONFIG.requestTimeoutMs / 1000),
      upstreams,
      localModels,
      rateLimit: values["rate-limit"] === undefined ? (file?.rateLimit ?? DEFAULT_CONFIG.rateLimit) : parseRateLimit(values["rate-limit"]),
      ...(database === undefined ? {} : { database }),
      databasePoolSize: positiveInt("database-pool", values["database-pool"], DEFAULT_CONFIG.databasePoolSize),
      keyCacheGraceMs: seconds("key-cache-grace", values["key-cache-grace"], DEFAULT_CONFIG.keyCacheGraceMs),
      keyCacheMaxAgeMs: seconds("key-cache-max-age", values["key-cache-max-age"], DEFAULT_CONFIG.keyCacheMaxAgeMs),
      keyListenerHeartbeatMs: positiveSeconds("key-listener-heartbeat", values["key-listener-heartbeat"], DEFAULT_CONFIG.keyListenerHeartbeatMs),
      usageQueueMax: positiveInt("usage-queue", values["usage-queue"], DEFAULT_CONFIG.usageQueueMax),
      // A replica on a database drains on SIGTERM (see drain.ts); without one a stop is at once.
      drainDelayMs: seconds("drain-delay", values["drain-delay"], database === undefined ? DEFAULT_CONFIG.drainDelayMs : 5_000),
      drainGraceMs: seconds("drain-grace", values["drain-grace"], database === undefined ? DEFAULT_CONFIG.drainGraceMs : 30_000),
      loginCodeMs: positiveSeconds("login-link-lifetime", values["login-link-lifetime"], DEFAULT_CONFIG.loginCodeMs),
    },
  };
}

/** --allowed-hosts, else WISP_ALLOWED_HOSTS (a launcher's way to pass it without a flag older servers refuse). */
function allowedHosts(flag: string | undefined, env: Record<string, string | undefined>): AllowedHosts {
  if (flag !== undefined) return parseAllowedHosts(flag);
  return env.WISP_ALLOWED_HOSTS ? parseAllowedHosts(env.WISP_ALLOWED_HOSTS, "WISP_ALLOWED_HOSTS") : DEFAULT_CONFIG.allowedHosts;
}

/** A --config file; its mistakes are named with the file, line and reason. */
function readConfigFile(file: string): FileConfig {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new Error(`--config ${file}: ${(error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message}`);
  }
  try {
    return parseConfigFile(text);
  } catch (error) {
    throw new Error(`${file}: ${(error as Error).message}`);
  }
}
