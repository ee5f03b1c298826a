import { TempDirs } from "../../harness/temp-dirs";
import { ensureToolchain } from "../../harness/toolchain";
import { WorkbenchPage } from "../../harness/workbench-page";
import { startWorkbench, type WorkbenchOptions, type WorkbenchSession } from "../../harness/workbench-session";
import { screenshotOnFailure } from "./screenshot-on-failure";
import { stopWorkbench } from "./stop-workbench";

/** What a suite's setup starts: the API the extension talks to, and the workbench's options. */
export interface SuiteSetup<S> {
  server: S;
  workbench: Omit<WorkbenchOptions, "toolchain">;
}

/** Filled in by the suite's `before` hook. */
export interface WorkbenchSuite<S> {
  server: S;
  session: WorkbenchSession;
  ui: WorkbenchPage;
}

/**
 * Registers a suite's hooks: `setup` starts its API server and names the workbench to open (with
 * temporary folders from `temp`); the workbench opens in Chromium before the tests, and everything
 * stops after them, with a screenshot of each failing test (and the suite fails if Wisp's code
 * raised an error the extension host logged).
 */
export function useWorkbench<S extends { close(): Promise<void> }>(setup: (temp: TempDirs) => Promise<SuiteSetup<S>>): WorkbenchSuite<S> {
  const temp = new TempDirs();
  const suite: Partial<WorkbenchSuite<S>> = {};
  before(async () => {
    const toolchain = ensureToolchain();
    const started = await setup(temp);
    suite.server = started.server;
    suite.session = await startWorkbench({ toolchain, ...started.workbench });
    suite.ui = new WorkbenchPage(suite.session.page!);
    await suite.ui.waitReady();
  });
  after(async () => {
    try {
      await stopWorkbench(suite.session);
    } finally {
      await suite.server?.close();
      temp.removeAll();
    }
  });
  screenshotOnFailure(() => suite.session?.page, () => suite.session?.userDataDir);
  return suite as WorkbenchSuite<S>;
}
