import { parseDesktopArgs } from "./desktop-args";
import { runExtensionTestsInBrowser } from "./extension-test-session";
import { readToolchain } from "./toolchain";

/**
 * Stand-in for the desktop `code` executable, for @vscode/test-electron's
 * runTests({ vscodeExecutablePath }): runs the extension tests in code-server + headless
 * Chromium and exits with the extension host's test exit code.
 */
async function main(): Promise<number> {
  const args = parseDesktopArgs(process.argv.slice(2));
  if (args.extensionTestsPath === undefined) {
    process.stderr.write("code-cli: only extension test runs are supported (--extensionTestsPath=...)\n");
    return 2;
  }
  return runExtensionTestsInBrowser(readToolchain(), {
    extensionDevelopmentPath: args.extensionDevelopmentPaths[0],
    extensionTestsPath: args.extensionTestsPath,
    target: args.target,
    userDataDir: args.userDataDir,
    extensionsDir: args.extensionsDir,
    // Set by vscode-tests-runner.ts for a suites folder that asks for Restricted Mode (its trust.json).
    workspaceTrust: process.env.WISP_VSCODE_WORKSPACE_TRUST === "on",
  });
}

process.exitCode = await main();
