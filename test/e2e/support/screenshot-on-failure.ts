import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { repoRoot } from "../../harness/toolchain";
import { wispLogTail } from "./wisp-log";

export const e2eResultsDir = join(repoRoot, "test-results/e2e");

/**
 * Registers an afterEach hook that saves a screenshot of the page when a test fails and, given the
 * profile's folder, prints the notifications shown and the end of Wisp's log: a failure that comes
 * once in many runs (on CI) is then read from the output, not guessed at.
 */
export function screenshotOnFailure(page: () => Page | undefined, userDataDir: () => string | undefined = () => undefined): void {
  afterEach(async function () {
    const test = this.currentTest;
    const current = page();
    if (test?.state !== "failed" || current === undefined) return;
    mkdirSync(e2eResultsDir, { recursive: true });
    const file = join(e2eResultsDir, `${test.fullTitle().replace(/[^\w-]+/g, "_").slice(0, 120)}.png`);
    await current.screenshot({ path: file }).then(
      () => console.log(`    screenshot: ${file}`),
      (error: Error) => console.log(`    screenshot failed: ${error.message}`),
    );
    const profile = userDataDir();
    if (profile === undefined) return;
    const shown = await current.locator(".notifications-toasts .notification-list-item-message").allInnerTexts().catch(() => []);
    console.log(`    notifications shown: ${JSON.stringify(shown)}`);
    console.log(`    the Wisp log ends:\n${wispLogTail(profile, 25).replace(/^/gm, "      ")}`);
  });
}
