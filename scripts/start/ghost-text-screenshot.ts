import type { Page } from "playwright-core";
import { waitFor } from "../../test/harness/wait-for";
import { WorkbenchPage } from "../../test/harness/workbench-page";

/**
 * In the open workbench: waits for Wisp to be ready, opens `file`, types `typed` at its end and
 * saves a screenshot once ghost text shows (or after `timeoutMs` without it). Returns the ghost text.
 */
export async function screenshotGhostText(options: {
  page: Page;
  statusItemId: string;
  file: string;
  typed: string;
  screenshot: string;
  timeoutMs?: number;
}): Promise<string | undefined> {
  const ui = new WorkbenchPage(options.page);
  const timeoutMs = options.timeoutMs ?? 60_000;
  await ui.waitReady();
  await waitFor("Wisp ready in the status bar", () => ui.statusText(options.statusItemId).catch(() => ""), isReady, timeoutMs);
  await ui.openFile(options.file);
  await ui.typeAtEnd(options.typed);
  const text = await ui.waitForGhostText(timeoutMs).catch(() => undefined);
  await options.page.screenshot({ path: options.screenshot });
  return text;
}

/** The ready status shows just "Wisp", with the last latency once a completion ran. */
function isReady(text: string): boolean {
  return /^Wisp( \d+ms)?$/.test(text);
}
