import { runTests } from "@vscode/test-electron";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildVscodeTests } from "./build-vscode-tests";
import { editorOf } from "./editor";
import { raisedBy } from "./extension-host-log";
import { installFixtureExtensions } from "./fixture-extensions";
import { TempDirs } from "./temp-dirs";
import { ensureToolchain, repoRoot } from "./toolchain";

/**
 * Runs test/vscode inside a real VS Code through @vscode/test-electron, with code-cli.mjs standing
 * in for the desktop executable; WISP_VSCODE_EDITOR=oldest runs the smoke suites in the oldest VS
 * Code Wisp supports (npm run test:vscode:oldest). WISP_EXTENSION_PATH overrides the extension under test;
 * WISP_VSCODE_SUITES names another folder of suites (a benchmark's), and the WISP_BENCH_*
 * variables reach those suites. A suites folder with a workspace.json (`{ "folders": ["alpha", "beta"] }`)
 * runs in a multi-root workspace of those folders, opened through a .code-workspace file. One with
 * a trust.json (`{ "trusted": false, "settings": {…} }`) runs with workspace trust on, its folder
 * not trusted (Restricted Mode), holding those settings in its .vscode/settings.json.
 */
async function main(): Promise<number> {
  ensureToolchain();
  const extensionPath = process.env.WISP_EXTENSION_PATH ?? repoRoot;
  // Always rebuild (about a second): a stale dist/ would test yesterday's extension.
  if (extensionPath === repoRoot) buildExtension();
  const suitesDir = process.env.WISP_VSCODE_SUITES;
  const extensionTestsPath = await buildVscodeTests(suitesDir);
  const temp = new TempDirs();
  try {
    const workspace = temp.make("workspace");
    const folders = workspaceFolders(suitesDir);
    let target = workspace;
    if (folders === undefined) writeFileSync(join(workspace, "hello.ts"), "export function hello(name: string): string {\n  return `hi ${name}`;\n}\n");
    else {
      for (const folder of folders) mkdirSync(join(workspace, folder));
      target = join(workspace, "wisp.code-workspace");
      writeFileSync(target, `${JSON.stringify({ folders: folders.map((path) => ({ path })) }, null, 2)}\n`);
    }
    const userDataDir = temp.make("user-data");
    // Other extensions the suites drive (one uses Wisp's models through vscode.lm, as any extension would).
    const extensionsDir = temp.make("extensions");
    await installFixtureExtensions(extensionsDir);
    // The suites bring their own servers; test/vscode/local-server.test.ts turns auto-start on itself.
    mkdirSync(join(userDataDir, "User"), { recursive: true });
    const trust = restrictedMode(suitesDir);
    const trustSettings = trust ? { "security.workspace.trust.enabled": true, "security.workspace.trust.startupPrompt": "never" } : {};
    writeFileSync(join(userDataDir, "User", "settings.json"), `${JSON.stringify({ "wisp.localServer.autoStart": false, ...trustSettings }, null, 2)}\n`);
    if (trust) {
      mkdirSync(join(workspace, ".vscode"), { recursive: true });
      writeFileSync(join(workspace, ".vscode", "settings.json"), `${JSON.stringify(trust.settings, null, 2)}\n`);
      process.env.WISP_VSCODE_WORKSPACE_TRUST = "on";
    }
    await runTests({
      vscodeExecutablePath: join(repoRoot, "test/harness/code-cli.mjs"),
      extensionDevelopmentPath: extensionPath,
      extensionTestsPath,
      launchArgs: [target, `--user-data-dir=${userDataDir}`, `--extensions-dir=${extensionsDir}`],
      // Read by the suites: where the user's settings.json lives, and the opened folder (a multi-root workspace's folders are in it).
      // WISP_VSCODE_EDITOR picks the editor (./editor.ts) in code-cli and the suites in the extension host.
      extensionTestsEnv: { WISP_TEST_USER_DATA_DIR: userDataDir, WISP_TEST_WORKSPACE: workspace, WISP_VSCODE_EDITOR: editorOf(), ...benchEnv() },
    });
    // An exception in Wisp's code that nothing caught (an event handler's, a promise's) fails no
    // test by itself: the extension host logs it. None may be logged in the whole run.
    const raised = raisedBy(userDataDir, "wisp.wisp", join(extensionPath, "dist"));
    if (raised.length > 0) {
      process.stderr.write(`The extension host logged ${raised.length} error(s) or warning(s) raised from Wisp's code:\n${raised.join("\n")}\n`);
      return 1;
    }
    return 0;
  } catch (error) {
    process.stderr.write(`VS Code tests failed: ${(error as Error).message}\n`);
    return 1;
  } finally {
    temp.removeAll();
  }
}

/** The folders of the multi-root workspace a suites folder asks for (its workspace.json), else undefined: one folder. */
function workspaceFolders(suitesDir: string | undefined): string[] | undefined {
  const file = suitesDir === undefined ? undefined : join(repoRoot, suitesDir, "workspace.json");
  if (file === undefined || !existsSync(file)) return undefined;
  const { folders } = JSON.parse(readFileSync(file, "utf8")) as { folders: string[] };
  return folders;
}

/** What a suites folder's trust.json asks for: Restricted Mode, with these workspace settings; undefined: a trusted folder. */
function restrictedMode(suitesDir: string | undefined): { settings: Record<string, unknown> } | undefined {
  const file = suitesDir === undefined ? undefined : join(repoRoot, suitesDir, "trust.json");
  if (file === undefined || !existsSync(file)) return undefined;
  const { trusted, settings } = JSON.parse(readFileSync(file, "utf8")) as { trusted: boolean; settings?: Record<string, unknown> };
  return trusted ? undefined : { settings: settings ?? {} };
}

function benchEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((entry): entry is [string, string] => entry[0].startsWith("WISP_BENCH_") && entry[1] !== undefined));
}

function buildExtension(): void {
  const result = spawnSync("npm", ["run", "--silent", "build"], { cwd: repoRoot, stdio: "inherit" });
  if (result.status !== 0) throw new Error("npm run build failed");
}

process.exitCode = await main();
