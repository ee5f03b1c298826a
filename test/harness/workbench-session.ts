import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./browser";
import { raisedBy } from "./extension-host-log";
import { startCodeServer, type CodeServer } from "./code-server";
import { installFixtureExtensions } from "./fixture-extensions";
import { installVsixCopy } from "./installed-vsix";
import { TempDirs } from "./temp-dirs";
import type { Toolchain } from "./toolchain";
import { workbenchUrl } from "./workbench-url";

export interface WorkbenchOptions {
  toolchain: Toolchain;
  /** Packaged extensions to install before the workbench starts. */
  vsixes?: string[];
  /** Fixture extensions (folders of test/fixtures) to install beside them. */
  fixtures?: string[];
  /** Folder to open. */
  folder: string;
  /** User settings written to settings.json before start. */
  settings?: Record<string, unknown>;
  /** Environment of code-server and its extension host. */
  env?: Record<string, string>;
  /** code-server's port (default: a free one). */
  port?: number;
  /** Prefix of the temporary folders' names. */
  tempPrefix?: string;
  /** Whether to open a headless Chromium on the workbench (default true). */
  browser?: boolean;
  onOutput?: (chunk: string) => void;
}

export interface WorkbenchSession {
  server: CodeServer;
  /** The URL that opens the folder. */
  url: string;
  userDataDir: string;
  browser?: Browser;
  page?: Page;
  /** Closes the browser, ends code-server's process group and removes every temporary folder. */
  stop(): Promise<void>;
  /**
   * The errors and warnings the extension host logged from Wisp's code (an exception nothing
   * caught fails no test by itself): so far, or up to the end once stopped.
   */
  raisedByWisp(): string[];
}

/** code-server with the given extensions and settings in a throwaway profile, optionally with Chromium on it. */
export async function startWorkbench(options: WorkbenchOptions): Promise<WorkbenchSession> {
  const temp = new TempDirs();
  const prefix = options.tempPrefix ?? "";
  const dirs = { home: temp.make(`${prefix}home`), userDataDir: temp.make(`${prefix}user-data`), extensionsDir: temp.make(`${prefix}extensions`) };
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  // The installed extension's folder is wisp.wisp-<version>.
  const raisedNow = () => raisedBy(dirs.userDataDir, "wisp.wisp", "/wisp.wisp-");
  let raisedAtStop: string[] | undefined;
  const raisedByWisp = () => raisedAtStop ?? raisedNow();
  const stop = async (): Promise<void> => {
    await browser?.close().catch(() => {});
    await server?.stop();
    // Read once its logs are written out, before they go with the profile; stopping goes on regardless.
    try {
      raisedAtStop ??= raisedNow();
    } catch (error) {
      raisedAtStop = [`the extension host's log could not be read: ${(error as Error).message}`];
    }
    temp.removeAll();
  };
  try {
    // Folders only, no extensions.json: VS Code takes in all it finds there on first start.
    if (options.fixtures) await installFixtureExtensions(dirs.extensionsDir, options.fixtures);
    for (const vsix of options.vsixes ?? []) installVsixCopy(options.toolchain, vsix, dirs.extensionsDir);
    writeUserSettings(dirs.userDataDir, options.settings ?? {});
    // Chromium starts while code-server does: neither needs the other until the page opens.
    const launching = options.browser === false ? undefined : launchChromium(options.toolchain).then((b) => (browser = b));
    try {
      server = await startCodeServer({ toolchain: options.toolchain, ...dirs, port: options.port, env: options.env, onOutput: options.onOutput });
    } finally {
      await launching?.catch(() => {});
    }
    const url = workbenchUrl(server.url, { target: options.folder });
    if (launching === undefined) return { server, url, userDataDir: dirs.userDataDir, stop, raisedByWisp };
    browser = await launching;
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // A loaded machine can take longer than Playwright's 30 s to load the workbench: the test's own limit bounds it.
    await page.goto(url, { timeout: 0 });
    return { server, url, userDataDir: dirs.userDataDir, browser, page, stop, raisedByWisp };
  } catch (error) {
    await stop();
    throw error;
  }
}

export function userSettingsPath(userDataDir: string): string {
  return join(userDataDir, "User", "settings.json");
}

function writeUserSettings(userDataDir: string, settings: Record<string, unknown>): void {
  mkdirSync(join(userDataDir, "User"), { recursive: true });
  // Quiet, offline, predictable workbench: no welcome page, no gallery lookups, no trust prompt.
  const defaults = {
    "workbench.startupEditor": "none",
    "extensions.autoCheckUpdates": false,
    "extensions.autoUpdate": false,
    "security.workspace.trust.enabled": false,
    "workbench.tips.enabled": false,
    "chat.disableAIFeatures": true,
    "workbench.secondarySideBar.defaultVisibility": "hidden",
  };
  writeFileSync(userSettingsPath(userDataDir), `${JSON.stringify({ ...defaults, ...settings }, null, 2)}\n`);
}
