import { chromium, type Browser } from "playwright-core";
import type { Toolchain } from "./toolchain";

// Headless Debian Chromium as a container-friendly, offline, quiet client of code-server.
const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** Playwright gives it a fresh temporary profile and removes it on `close()`. */
export function launchChromium(toolchain: Toolchain): Promise<Browser> {
  return chromium.launch({ executablePath: toolchain.chromiumPath, headless: true, args: chromiumArgs });
}
