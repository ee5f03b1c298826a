/**
 * A real DOM for webview unit tests: `entry` (a module that puts what the test drives on
 * `window`) is bundled for the browser and loaded into a blank page of headless Chromium.
 * Chromium rather than a DOM emulation: the markdown goes through DOMPurify and <details>,
 * focus and layout behave as in the webview.
 */
import { build } from "esbuild";
import { existsSync } from "node:fs";
import { chromium, type Browser, type Page } from "playwright-core";
import { readToolchain } from "../../harness/toolchain";

export interface WebviewPage {
  readonly page: Page;
  close(): Promise<void>;
}

export async function openWebviewPage(entry: string): Promise<WebviewPage> {
  const { chromiumPath } = readToolchain();
  if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath} (set WISP_CHROMIUM, or run npm run setup:vscode)`);
  const bundle = await build({ entryPoints: [entry], bundle: true, write: false, platform: "browser", format: "iife", target: "es2022", logLevel: "silent" });
  const browser: Browser = await chromium.launch({ executablePath: chromiumPath, headless: true, args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"] });
  try {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    await page.setContent("<!doctype html><html><body></body></html>");
    await page.addScriptTag({ content: bundle.outputFiles[0]!.text });
    if (errors.length > 0) throw new Error(`the page failed to load: ${errors.join("; ")}`);
    return { page, close: () => browser.close() };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
