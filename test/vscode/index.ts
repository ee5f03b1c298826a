import { readdirSync } from "node:fs";
import { join } from "node:path";
import { format } from "node:util";
import Mocha from "mocha";
import { testOutputMarker } from "../harness/test-output";

/**
 * Tests module of the extension host: VS Code calls `run()` and reports failure when it rejects.
 * Loads every *.test.cjs bundled next to this file; WISP_VSCODE_GREP narrows the run.
 */
export async function run(): Promise<void> {
  // Marked so that the harness can tell the test report from the workbench's own log lines.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => console.log(testOutputMarker + format(...args));
  const mocha = new Mocha({ ui: "bdd", reporter: "spec", color: false, timeout: 60_000 });
  const grep = process.env.WISP_VSCODE_GREP;
  if (grep) mocha.grep(grep);
  for (const name of readdirSync(__dirname).filter((file) => file.endsWith(".test.cjs")).sort()) {
    mocha.addFile(join(__dirname, name));
  }
  // run() require()s the added files itself, so `require("vscode")` in them resolves in the host.
  const failures = await new Promise<number>((done) => mocha.run(done));
  if (failures > 0) throw new Error(`${failures} VS Code test(s) failed`);
}
