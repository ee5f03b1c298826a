import { TempDirs } from "../../harness/temp-dirs";
import { ensureToolchain } from "../../harness/toolchain";
import { WorkbenchPage } from "../../harness/workbench-page";
import { startWorkbench, type WorkbenchOptions, type WorkbenchSession } from "../../harness/workbench-session";
import { screenshotOnFailure } from "./screenshot-on-failure";

/** What a suite's setup starts: the API the extension talks to, and the workbench's options. */
export interface SuiteSetup<S> {
  server: S;
  workbench: Omit<WorkbenchOptions, "toolchain">;
}

/**
 * Registers a suite's hooks: `setup` starts its API server and names the workbench to open (with a
 * temporary folder from `temp`); the workbench opens in Chromium before the tests, and everything
 * stops after them, with a screenshot of each failing test.
 */
export function useWorkbench<S extends { close(): Promise<void> }>(setup: (temp: TempDirs) => Promise<SuiteSetup<S>>): { ui(): WorkbenchPage; server(): S } {
  const temp = new TempDirs();
  let server: S | undefined;
  let session: WorkbenchSession | undefined;
  let ui: WorkbenchPage | undefined;
  before(async () => {
    const toolchain = ensureToolchain();
    const started = await setup(temp);
    server = started.server;
    session = await startWorkbench({ toolchain, ...started.workbench });
    ui = new WorkbenchPage(session.page!);
    await ui.waitReady();
  });
  after(async () => {
    await session?.stop();
    await server?.close();
    temp.removeAll();
  });
  screenshotOnFailure(() => session?.page);
  return { ui: () => ui!, server: () => server! };
}
