import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { repoRoot } from "../../harness/toolchain";

export const e2eResultsDir = join(repoRoot, "test-results/e2e");

/** Registers an afterEach hook that saves a screenshot of the page when a test fails. */
export function screenshotOnFailure(page: () => Page | undefined): void {
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
  });
}
