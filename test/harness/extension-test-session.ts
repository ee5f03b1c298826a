import { createWriteStream, mkdirSync, type WriteStream } from "node:fs";
import { join } from "node:path";
import { format } from "node:util";
import type { Browser } from "playwright-core";
import { launchChromium } from "./browser";
import { startCodeServer, type CodeServer } from "./code-server";
import { TempDirs } from "./temp-dirs";
import { testOutputMarker } from "./test-output";
import type { Toolchain } from "./toolchain";
import { workbenchUrl } from "./workbench-url";

export interface ExtensionTestRun {
  extensionDevelopmentPath?: string;
  extensionTestsPath: string;
  target?: string;
  /** Default to temporary folders removed afterwards. */
  userDataDir?: string;
  extensionsDir?: string;
  /** Overall limit for the test run in the workbench. */
  timeoutMs?: number;
  /** Workspace trust on: the folder, never trusted, opens in Restricted Mode. */
  workspaceTrust?: boolean;
}

const exitOnSignal = 130;

/**
 * Starts code-server with the smoke-test driver and a headless Chromium on the workbench URL that
 * runs the tests; resolves with the extension host's exit code. The test report goes to stdout,
 * code-server's and the workbench's logs to test-results/vscode/. Everything started is stopped
 * and every temporary folder removed, also on Ctrl+C.
 */
export async function runExtensionTestsInBrowser(toolchain: Toolchain, run: ExtensionTestRun): Promise<number> {
  const temp = new TempDirs();
  const logDir = join(toolchain.root, "test-results/vscode");
  mkdirSync(logDir, { recursive: true });
  const serverLog = createWriteStream(join(logDir, "code-server.log"));
  const workbenchLog = createWriteStream(join(logDir, "workbench.log"));
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let stopping = false;
  let finish: (code: number) => void = () => {};
  const finished = new Promise<number>((done) => (finish = done));
  const onSignal = (): void => finish(exitOnSignal);
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  // A bound for a run that hangs, not a speed check: the whole suite takes about 9 minutes on a quiet 2-core machine.
  const timeoutMs = run.timeoutMs ?? 1_800_000;
  const timer = setTimeout(() => {
    process.stderr.write(`code-cli: tests did not finish within ${timeoutMs} ms\n`);
    finish(1);
  }, timeoutMs);
  try {
    server = await startCodeServer({
      toolchain,
      home: temp.make("home"),
      userDataDir: run.userDataDir ?? temp.make("user-data"),
      extensionsDir: run.extensionsDir ?? temp.make("extensions"),
      smokeTestDriver: true,
      workspaceTrust: run.workspaceTrust === true,
      onOutput: (text) => serverLog.write(text),
    });
    void server.process.exited.then((code) => {
      if (stopping) return;
      process.stderr.write(`code-cli: code-server exited (${code}) during the tests\n`);
      finish(1);
    });
    browser = await launchChromium(toolchain);
    const page = await browser.newPage();
    await page.exposeFunction("codeAutomationLog", (level: string, args: unknown) => writeLog(workbenchLog, level, args));
    await page.exposeFunction("codeAutomationExit", (code: number) => finish(code));
    page.on("pageerror", (error) => workbenchLog.write(`[pageerror] ${error.message}\n`));
    // The run's own limit, not playwright's 30 s: a loaded machine can take longer to serve the workbench.
    await page.goto(workbenchUrl(server.url, run), { timeout: timeoutMs });
    const code = await finished;
    if (code !== 0) process.stderr.write(`code-cli: exit code ${code}; logs in ${logDir}\n`);
    return code;
  } finally {
    stopping = true;
    clearTimeout(timer);
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
    await browser?.close().catch(() => {});
    await server?.stop();
    temp.removeAll();
    await Promise.all([serverLog, workbenchLog].map(closeStream));
  }
}

function writeLog(log: WriteStream, level: string, args: unknown): void {
  const text = Array.isArray(args) ? format(...(args as unknown[])) : String(args);
  if (text.startsWith(testOutputMarker)) process.stdout.write(`${text.slice(testOutputMarker.length)}\n`);
  else log.write(`[${level}] ${text}\n`);
}

function closeStream(stream: WriteStream): Promise<void> {
  return new Promise((done) => stream.end(done));
}
