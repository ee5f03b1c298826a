// wisp-server: serves the API (default) or manages API keys.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isLoopbackAddress } from "../core/net/host-allowed";
import { buildApp } from "./app";
import type { KeyRecords } from "./auth/key-records";
import { KeyStore } from "./auth/key-store";
import { parseCommand, USAGE, type Command, type StoreTarget } from "./cli-args";
import { drain } from "./drain";
import { serverVersion } from "./server-version";
import { StartupError } from "./startup-error";
import { usableFolder } from "./usable-folder";
import { AdminToken, adminTokenFile } from "./store/admin-token-file";
import type { ServerConfig } from "./deps";
import { presetTable, runPull } from "./models/pull/pull-command";
import { PullError } from "./models/pull/pull-error";
import { missingEnginesMessage, missingNativeEngines } from "./engines/native-engines";

const print = (line: string): void => {
  process.stdout.write(`${line}\n`);
};

async function serve(config: ServerConfig): Promise<void> {
  const target = `${process.platform}-${process.arch}`;
  const missing = missingNativeEngines(target, path.dirname(fileURLToPath(import.meta.url)));
  if (missing.length > 0) throw new Error(missingEnginesMessage(target, missing));
  await usableFolder(config.modelsDir, "--models-dir");
  // A team's replicas keep nothing there.
  if (config.database === undefined) await usableFolder(config.dataDir, "--data-dir");
  const { app, deps, adminToken } = await buildApp({ ...config, log: print, accessLog: true, processMetrics: true });
  const address = await app.listen({ host: config.host, port: config.port }).catch((error: NodeJS.ErrnoException) => {
    throw listenError(error, config);
  });
  // Without any key nothing could call the server: make one, shown this once only (once it
  // listens: a server that cannot would print a key the next start no longer shows).
  const made = await deps.store.ensureKey("default");
  if (made) {
    print(`created API key ${made.key.id} (${made.key.name}): ${made.secret}`);
    print("it is not shown again; manage keys with: wisp-server keys create|list|revoke");
  }
  for (const m of deps.registry.list()) print(`model ${m.id} (${m.kind}) from ${m.path}`);
  // The upstream's URL and state, never its key.
  for (const u of deps.upstreams.status()) {
    print(`upstream ${u.name} at ${u.base_url}: ${u.healthy ? `${u.models.length} models (${u.models.join(", ")})` : `unavailable (${u.last_error ?? "not checked"}), retrying`}`);
  }
  const lookup = config.inputLookup > 0 ? `input lookup ${config.inputLookup} tokens` : "input lookup off";
  print(`threads ${config.threads} (prompts ${config.threadsBatch}), parallel ${config.parallel}, context ${config.contextSize} tokens, queue ${config.maxQueue}, ${lookup}`);
  print(deps.store.description);
  if (!isLoopbackAddress(config.host)) {
    print(`warning: --host ${config.host} accepts connections from other machines; every request still needs an API key`);
  }
  if (config.allowedHosts === "all") print("allowed hosts: all (no Host check)");
  else if (config.allowedHosts.length > 0) print(`allowed hosts: ${config.allowedHosts.join(", ")}, localhost and IP addresses`);
  // The one place the admin token is printed: the link that logs into the web console.
  if (adminToken !== undefined) print(`console: ${browsableOrigin(address)}/login?token=${adminToken}`);
  else print(`console: ${browsableOrigin(address)}/login with the admin token printed when the database was first used (wisp-server admin-token new makes another)`);
  print(`wisp-server ${deps.version} listening on ${address}/v1`);
  // After the line that says it is up: loading llama.cpp's binary takes seconds on a cold machine.
  deps.textEngine.describeBinary().then(
    (binary) => print(`text engine: ${binary}`),
    (error: unknown) => print(`text engine: unavailable (${error instanceof Error ? error.message : String(error)})`),
  );
  let stopping = false;
  const stop = () => {
    // A second signal while draining (Ctrl+C again) stops at once.
    if (stopping) process.exit(1);
    stopping = true;
    void drain(app, deps, print).then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`wisp-server: stopping failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

/** An address that cannot be listened on is no usage mistake: one line that says what to change (the code stays in it: the editor reads EADDRINUSE). */
function listenError(error: NodeJS.ErrnoException, config: ServerConfig): Error {
  const where = `${config.host.includes(":") ? `[${config.host}]` : config.host}:${config.port}`;
  if (error.code === "EADDRINUSE") return new StartupError(`cannot listen on ${where}: another program uses that port (EADDRINUSE): stop it, or give this one another --port`);
  if (error.code === "EACCES") return new StartupError(`cannot listen on ${where}: not allowed to use that port (EACCES): give another --port (above 1023 without privileges)`);
  if (error.code === "EADDRNOTAVAIL") return new StartupError(`cannot listen on ${where}: this machine has no such address (EADDRNOTAVAIL): give another --host`);
  return error;
}

/** A wildcard listen address is no place to browse to: the loopback address of its family is. */
function browsableOrigin(address: string): string {
  return address.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//[::1]:");
}

/**
 * The keys a command works on, and where they are (said with each change: a team's operator who
 * forgot --database would otherwise make a key in ~/.wisp/keys.json that no replica knows).
 */
async function keysOf(store: StoreTarget): Promise<{ keys: KeyRecords; where: string; close(): Promise<void> }> {
  if (store.database === undefined) {
    const keys = new KeyStore(store.dataDir);
    return { keys, where: keys.file, close: async () => undefined };
  }
  return (await import("./store/postgres/db-commands")).databaseKeys(store.database);
}

async function withKeys(store: StoreTarget, work: (keys: KeyRecords, where: string) => Promise<void>): Promise<void> {
  const { keys, where, close } = await keysOf(store);
  try {
    await work(keys, where);
  } finally {
    await close();
  }
}

async function run(command: Command): Promise<void> {
  switch (command.kind) {
    case "help":
      return print(USAGE);
    case "version":
      return print(serverVersion());
    case "serve":
      return serve(command.config);
    case "keys-create":
      return withKeys(command.store, async (keys, where) => {
        const { key, secret } = await keys.create(command.name);
        print(`created ${key.id} (${key.name}) in ${where}`);
        print(secret);
      });
    case "keys-list":
      return withKeys(command.store, async (keys) => {
        for (const k of await keys.list()) {
          print(`${k.id}\t${k.name}\t${k.prefix}…\tcreated ${new Date(k.created * 1000).toISOString()}${k.revoked ? "\trevoked" : ""}`);
        }
      });
    case "keys-revoke":
      return withKeys(command.store, async (keys, where) => {
        if (!(await keys.revoke(command.id))) throw new StartupError(`no key ${command.id} in ${where} (wisp-server keys list shows them)`);
        print(`revoked ${command.id} in ${where}`);
      });
    case "admin-token-new": {
      if (command.store.database === undefined) {
        const { token } = await AdminToken.replace(command.store.dataDir);
        print(`a new console admin token, in ${adminTokenFile(command.store.dataDir)} (the earlier one no longer logs in):`);
        return print(token);
      }
      const token = await (await import("./store/postgres/db-commands")).newDatabaseAdminToken(command.store.database);
      print("a new console admin token (the earlier one no longer logs in, and every console session on every replica is ended):");
      return print(token);
    }
    case "db-migrate":
      return (await import("./store/postgres/db-commands")).dbMigrate(command.database, print);
    case "db-status":
      return (await import("./store/postgres/db-commands")).dbStatus(command.database, print);
    case "db-import":
      return (await import("./store/postgres/db-commands")).dbImport(command.database, command.dataDir, print);
    case "models-pull": {
      const abort = new AbortController();
      process.once("SIGINT", () => abort.abort());
      return runPull(command, { print, progress: process.stderr, env: process.env, signal: abort.signal });
    }
    case "models-presets":
      return presetTable().forEach(print);
  }
}

try {
  await run(parseCommand(process.argv.slice(2)));
} catch (error) {
  // A failed download or a database that cannot be used is no usage mistake: its message says
  // what to do, in one line, without the usage text.
  if (error instanceof PullError || error instanceof StartupError) {
    process.stderr.write(`${process.stderr.isTTY ? "\n" : ""}wisp-server: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`wisp-server: ${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
