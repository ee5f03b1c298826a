import { createWriteStream } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { launchChromium } from "../../test/harness/browser";
import { freePort } from "../../test/harness/free-port";
import { TempDirs } from "../../test/harness/temp-dirs";
import { repoRoot, type Toolchain } from "../../test/harness/toolchain";
import { waitFor } from "../../test/harness/wait-for";
import { startLocalServer, type LocalServer } from "../start/local-server";
import { saveShot, type Clip } from "./save-shot";

/** Keys the screenshot shows: name, and how many requests it made (a revoked one last). */
const keys = [
  { name: "laptop", requests: 3 },
  { name: "ci-runner", requests: 1 },
  { name: "old-notebook", requests: 0, revoke: true },
];

/** The web console's keys page on a real wisp-server (fresh data folder), with a few keys in use. */
export async function consoleShot(toolchain: Toolchain, file: string, clip?: Clip): Promise<number> {
  const temp = new TempDirs();
  const log = createWriteStream(join(temp.make("screenshots-console-log"), "server.log"));
  let server: LocalServer | undefined;
  const browser = await launchChromium(toolchain);
  try {
    server = await startLocalServer({ root: repoRoot, port: await freePort(), modelsDir: temp.make("screenshots-models"), dataDir: temp.make("screenshots-data"), log });
    const running = server;
    const loginUrl = (await waitFor("the console's login URL in the server's output", () => running.consoleUrl(), (url) => url !== undefined, 10_000))!;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(loginUrl);
    await page.locator("header h1", { hasText: "Wisp console" }).waitFor();
    await page.goto(new URL("/#keys", loginUrl).href);
    for (const key of keys) {
      const secret = await createKey(page, key.name);
      for (let i = 0; i < key.requests; i++) await listModels(server.baseUrl, secret);
      if (key.revoke) {
        const row = page.locator("table.keys tr", { hasText: key.name });
        await row.locator("button", { hasText: "Revoke" }).click();
        await row.locator("button", { hasText: "Confirm revoke" }).click();
        await row.locator("td.revoked").waitFor();
      }
    }
    // A fresh load shows each key's last use.
    await page.reload();
    await page.locator("table.keys tr", { hasText: keys[0]!.name }).locator("td.active").waitFor();
    return await saveShot(page, file, clip);
  } finally {
    await browser.close();
    await server?.process.stop();
    await new Promise<void>((done) => log.end(done));
    temp.removeAll();
  }
}

/** Creates a key in the form and closes its show-once secret (kept out of the picture). */
async function createKey(page: Page, name: string): Promise<string> {
  await page.fill("#key-name", name);
  await page.click("text=Create key");
  const secret = (await page.locator("code.secret").innerText()).trim();
  await page.click("text=Done");
  await page.locator("table.keys tr", { hasText: name }).waitFor();
  return secret;
}

async function listModels(baseUrl: string, secret: string): Promise<void> {
  const response = await fetch(`${baseUrl}/models`, { headers: { authorization: `Bearer ${secret}` } });
  if (!response.ok) throw new Error(`GET /v1/models with a new key: ${response.status}`);
}
