// wisp-server: serves the API (default) or manages API keys.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp } from "./app";
import { KeyStore } from "./auth/key-store";
import { parseCommand, USAGE, type Command } from "./cli-args";
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
  const { app, deps, adminToken } = await buildApp({ ...config, log: print, accessLog: true });
  if ((await deps.keys.list()).every((k) => k.revoked)) {
    // Without any key nothing could call the server: make one, shown this once only.
    const { key, secret } = await deps.keys.create("default");
    print(`created API key ${key.id} (${key.name}): ${secret}`);
    print("it is not shown again; manage keys with: wisp-server keys create|list|revoke");
  }
  const address = await app.listen({ host: config.host, port: config.port });
  for (const m of deps.registry.list()) print(`model ${m.id} (${m.kind}) from ${m.path}`);
  // The upstream's URL and state, never its key.
  for (const u of deps.upstreams.status()) {
    print(`upstream ${u.name} at ${u.base_url}: ${u.healthy ? `${u.models.length} models (${u.models.join(", ")})` : `unavailable (${u.last_error ?? "not checked"}), retrying`}`);
  }
  const lookup = config.inputLookup > 0 ? `input lookup ${config.inputLookup} tokens` : "input lookup off";
  print(`threads ${config.threads} (prompts ${config.threadsBatch}), parallel ${config.parallel}, context ${config.contextSize} tokens, queue ${config.maxQueue}, ${lookup}`);
  print(`keys in ${deps.keys.file}; usage records in ${path.join(config.dataDir, "usage")}; console admin token in ${path.join(config.dataDir, "admin-token")}`);
  if (!["127.0.0.1", "::1", "localhost"].includes(config.host)) {
    print(`warning: --host ${config.host} accepts connections from other machines; every request still needs an API key`);
  }
  // The one place the admin token is printed: the link that logs into the web console.
  print(`console: ${browsableOrigin(address)}/login?token=${adminToken}`);
  print(`wisp-server listening on ${address}/v1`);
  // After the line that says it is up: loading llama.cpp's binary takes seconds on a cold machine.
  deps.textEngine.describeBinary().then(
    (binary) => print(`text engine: ${binary}`),
    (error: unknown) => print(`text engine: unavailable (${error instanceof Error ? error.message : String(error)})`),
  );
  const stop = () => void app.close().then(() => process.exit(0));
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

/** A wildcard listen address is no place to browse to: the loopback address of its family is. */
function browsableOrigin(address: string): string {
  return address.replace("//0.0.0.0:", "//127.0.0.1:").replace("//[::]:", "//[::1]:");
}

async function run(command: Command): Promise<void> {
  switch (command.kind) {
    case "help":
      return print(USAGE);
    case "serve":
      return serve(command.config);
    case "keys-create": {
      const { key, secret } = await new KeyStore(command.dataDir).create(command.name);
      print(`created ${key.id} (${key.name})`);
      return print(secret);
    }
    case "keys-list": {
      for (const k of await new KeyStore(command.dataDir).list()) {
        print(`${k.id}\t${k.name}\t${k.prefix}…\tcreated ${new Date(k.created * 1000).toISOString()}${k.revoked ? "\trevoked" : ""}`);
      }
      return;
    }
    case "models-pull": {
      const abort = new AbortController();
      process.once("SIGINT", () => abort.abort());
      return runPull(command, { print, progress: process.stderr, env: process.env, signal: abort.signal });
    }
    case "models-presets":
      return presetTable().forEach(print);
    case "keys-revoke": {
      if (!(await new KeyStore(command.dataDir).revoke(command.id))) throw new Error(`no key ${command.id}`);
      return print(`revoked ${command.id}`);
    }
  }
}

try {
  await run(parseCommand(process.argv.slice(2)));
} catch (error) {
  // A failed download is no usage mistake: its message says what to do, without the usage text.
  if (error instanceof PullError) {
    process.stderr.write(`${process.stderr.isTTY ? "\n" : ""}wisp-server: ${error.message}\n`);
    process.exit(1);
  }
  process.stderr.write(`wisp-server: ${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}
