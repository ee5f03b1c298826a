import type { Page } from "playwright-core";
import { waitFor } from "../../test/harness/wait-for";
import { WorkbenchPage } from "../../test/harness/workbench-page";

/**
 * In the open workbench: waits for Wisp to be ready, opens `file`, types `typed` at its end and
 * saves a screenshot once ghost text shows (or after `timeoutMs` without it), then reverts the file.
 * Returns the ghost text.
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
  // The sample file is the user's to try things on: leave it as it was (else the next start
  // would type after this one's typing, had anything saved it).
  await options.page.keyboard.press("Escape");
  const reverted = async () => {
    await ui.runCommand("File: Revert File");
    // The palette only starts the command: wait for it to land before the browser goes.
    await options.page.locator(".tabs-container .tab.dirty").waitFor({ state: "detached", timeout: 10_000 });
  };
  await reverted().catch((error: Error) => {
    throw new Error(`screenshot saved, but ${options.file} was not reverted: ${error.message}`);
  });
  return text;
}

/**
 * The ready status shows "Wisp", with the last latency once a completion ran, and "· tiny models"
 * while the embedded models are all the server lists (as on a first `npm start`).
 */
export function isReady(text: string): boolean {
  return /^Wisp( \d+ms)?( · tiny models)?$/.test(text);
}
