import { readdirSync } from "node:fs";
import { join } from "node:path";
import { format } from "node:util";
import Mocha from "mocha";
import { testOutputMarker } from "../harness/test-output";
import { editorOf } from "../harness/editor";

/**
 * The suites that also run in the oldest VS Code package.json's engines.vscode accepts
 * (npm run test:vscode:oldest): activation, the key and the status bar, ghost text and the chat
 * view, and oldest-editor, which runs there only.
 */
const oldestEditorSuites = new Set(["activation", "api-key", "status-bar", "completion", "chat", "oldest-editor"]);

/**
 * Tests module of the extension host: VS Code calls `run()` and reports failure when it rejects.
 * Loads every *.test.cjs bundled next to this file (in the oldest editor, the smoke suites);
 * WISP_VSCODE_GREP narrows the run.
 */
export async function run(): Promise<void> {
  // Marked so that the harness can tell the test report from the workbench's own log lines.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(testOutputMarker + format(...args));
  const mocha = new Mocha({ ui: "bdd", reporter: "spec", color: false, timeout: 60_000 });
  const grep = process.env.WISP_VSCODE_GREP;
  if (grep) mocha.grep(grep);
  const wanted = editorOf() === "oldest" ? (suite: string) => oldestEditorSuites.has(suite) : (suite: string) => suite !== "oldest-editor";
  for (const name of readdirSync(__dirname).filter((file) => file.endsWith(".test.cjs")).sort()) {
    if (wanted(name.slice(0, -".test.cjs".length))) mocha.addFile(join(__dirname, name));
  }
  // run() require()s the added files itself, so `require("vscode")` in them resolves in the host.
  const failures = await new Promise<number>((done) => mocha.run(done));
  if (failures > 0) throw new Error(`${failures} VS Code test(s) failed`);
}
