import * as assert from "node:assert/strict";
import type { WorkbenchSession } from "../../harness/workbench-session";

/**
 * Fails the suite if the extension host logged an error or a warning from Wisp's code while it
 * ran (an exception nothing caught fails no test by itself). Called after the workbench stopped.
 */
export function assertWispRaisedNothing(session: WorkbenchSession | undefined): void {
  assert.deepEqual(session?.raisedByWisp() ?? [], [], "errors or warnings the extension host logged from Wisp's code");
}

/** Stops a suite's workbench, then checks what Wisp's code raised (assertWispRaisedNothing). */
export async function stopWorkbench(session: WorkbenchSession | undefined): Promise<void> {
  await session?.stop();
  assertWispRaisedNothing(session);
}
