import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { cpSync, createWriteStream, existsSync, mkdirSync, readdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { redact } from "../../src/core/log/redact";
import { provisionShippedModels } from "../../src/extension/local-engine/shipped-models";
import { killMarkedProcesses } from "../../test/harness/marked-processes";
import { TempDirs } from "../../test/harness/temp-dirs";
import { ensureToolchain, hasChromium, repoRoot } from "../../test/harness/toolchain";
import { ensureVsix } from "../../test/harness/vsix";
import { startWorkbench, type WorkbenchSession } from "../../test/harness/workbench-session";
import { screenshotGhostText } from "./ghost-text-screenshot";
import { createApiKey, startLocalServer, type LocalServer } from "./local-server";
import { RedactingLog } from "./redacting-log";

const usage = `usage: npm start -- [--port 8765] [--editor-port N] [--models-dir DIR] [--no-screenshot]
  Builds Wisp, starts the local server on the generated default models (and the repository's
  models/ when present) and a real VS Code (code-server) with the packaged extension on a sample
  workspace; prints the editor's and the web console's URLs. Ctrl+C stops everything.`;

const say = (line: string): void => void process.stdout.write(`[wisp start] ${line}\n`);

// Every process started from here inherits this marker, so that a stop during start-up can
// still find the ones not registered yet.
const runMarker = "WISP_START_RUN";
process.env[runMarker] = randomUUID();

/** Everything started so far, stopped in reverse order exactly once. */
class Running {
  private readonly stops: (() => Promise<void> | void)[] = [];
  private stopping: Promise<void> | undefined;

  /** Registers how to stop something; after a stop was requested, stops it at once. */
  add(stop: () => Promise<void> | void): void {
    if (this.stopping === undefined) this.stops.push(stop);
    else void runStop(stop);
  }

  stopAll(): Promise<void> {
    this.stopping ??= (async () => {
      for (const stop of this.stops.reverse()) await runStop(stop);
      await killMarkedProcesses(runMarker, process.env[runMarker] ?? "");
    })();
    return this.stopping;
  }
}

async function runStop(stop: () => Promise<void> | void): Promise<void> {
  await Promise.resolve()
    .then(stop)
    .catch((e: Error) => say(`while stopping: ${e.message}`));
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: ["ignore", "inherit", "inherit"] });
  if (result.status !== 0) throw new Error(`${command} ${args.join(" ")} failed (${result.status ?? result.signal})`);
}

function openLog(dir: string, name: string): WriteStream {
  mkdirSync(dir, { recursive: true });
  return createWriteStream(join(dir, name));
}

async function start(running: Running): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: "string", default: "8765" },
      "editor-port": { type: "string" },
      "models-dir": { type: "string" },
      "no-screenshot": { type: "boolean", default: false },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help) return void process.stdout.write(`${usage}\n`);
  const stateDir = join(repoRoot, ".wisp");
  const modelsDir = values["models-dir"] ?? join(stateDir, "models");
  const logsDir = join(stateDir, "logs");

  say("building");
  run("npm", ["run", "--silent", "build"]);
  say("setting up code-server (cached after the first run)");
  const toolchain = ensureToolchain();
  // The models the .vsix ships (a trained one, when the repository has it), as the extension provisions them.
  for (const name of await provisionShippedModels(join(repoRoot, "models"), modelsDir)) say(`copied models/${name} into ${modelsDir}`);
  if (!existsSync(modelsDir) || !readdirSync(modelsDir).some((name) => name.endsWith(".gguf"))) {
    say(`generating the default model into ${modelsDir}`);
    run(process.execPath, ["--import", "tsx", "scripts/gen-models.ts", "--out", join(modelsDir, "wisp-tiny.gguf")]);
  }
  say("packaging the extension");
  const vsix = ensureVsix();

  const temp = new TempDirs();
  running.add(() => temp.removeAll());
  const dataDir = temp.make("start-data");
  const apiKey = createApiKey(repoRoot, dataDir, "npm-start");
  // The server prints the web console's login token: the log file gets it redacted.
  const serverLog = new RedactingLog(openLog(logsDir, "server.log"), [apiKey]);
  running.add(() => serverLog.end());
  say(`starting wisp-server (log: ${join(logsDir, "server.log")})`);
  const server: LocalServer = await startLocalServer({
    root: repoRoot,
    port: Number(values.port),
    modelsDir,
    dataDir,
    log: serverLog,
    onStartupLine: (line) => say(`  server: ${redact(line, [apiKey])}`),
  });
  running.add(() => server.process.stop());
  say(`wisp-server listening on ${server.baseUrl}`);

  const workspace = join(stateDir, "workspace");
  if (!existsSync(workspace)) cpSync(join(repoRoot, "samples/workspace"), workspace, { recursive: true });
  const editorLog = openLog(logsDir, "code-server.log");
  running.add(() => new Promise<void>((done) => editorLog.end(done)));
  const screenshot = !values["no-screenshot"] && hasChromium(toolchain);
  const session: WorkbenchSession = await startWorkbench({
    toolchain,
    vsixes: [vsix],
    folder: workspace,
    port: values["editor-port"] === undefined ? undefined : Number(values["editor-port"]),
    // The sample workspace lies inside this repository: no "open the parent repository?" prompt.
    // Saving as desktop VS Code does (the web default saves as you type, so the screenshot's
    // typing would end up in the sample file).
    settings: { "wisp.baseUrl": server.baseUrl, "git.openRepositoryInParentFolders": "never", "files.autoSave": "off" },
    env: { WISP_API_KEY: apiKey },
    browser: screenshot,
    tempPrefix: "start-",
    onOutput: (text) => editorLog.write(text),
  });
  running.add(() => session.stop());
  say(`VS Code (code-server) with Wisp on ${workspace}`);
  const consoleUrl = server.consoleUrl();
  process.stdout.write(`\n  Open ${session.url}\n`);
  process.stdout.write(consoleUrl === undefined ? "  Web console: not in this build of wisp-server\n\n" : `  Web console: ${consoleUrl}\n\n`);

  if (session.page !== undefined) {
    const file = join(stateDir, "ghost-text.png");
    say("taking a screenshot of ghost text in src/math.ts");
    // Only a demonstration: a failure here must not take the running editor down.
    await screenshotGhostText({ page: session.page, statusItemId: "wisp.wisp.wisp.status", file: "math.ts", typed: "  return ", screenshot: file }).then(
      (ghost) => say(ghost === undefined ? `no ghost text showed; screenshot anyway: ${file}` : `ghost text "${ghost.trim()}": ${file}`),
      (error: Error) => say(`no screenshot: ${error.message}`),
    );
    // The headless browser was only for the screenshot: the user opens the URL in their own.
    await session.browser?.close();
  }
  say("running; press Ctrl+C to stop everything");
}

const running = new Running();
let signalled = false;
const shutdown = (code: number): void => {
  void running.stopAll().then(() => process.exit(code));
};
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  process.on(signal, () => {
    say(`${signal}: stopping`);
    signalled = true;
    shutdown(0);
  });
}
try {
  await start(running);
} catch (error) {
  // A Ctrl+C during a build step also ends that step with an error; let its handler run first.
  await new Promise((done) => setTimeout(done, 100));
  if (!signalled) {
    process.stderr.write(`[wisp start] ${(error as Error).message}\n`);
    shutdown(1);
  }
}
