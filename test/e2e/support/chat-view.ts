import type { Frame, Locator } from "playwright-core";
import { waitFor } from "../../harness/wait-for";
import type { WorkbenchPage } from "../../harness/workbench-page";

/** The Wisp chat view inside the workbench: its webview is a frame nested in two iframes. */
export class ChatView {
  constructor(readonly ui: WorkbenchPage) {}

  /** Opens the Wisp container from the activity bar, unless the chat is already shown. */
  async open(): Promise<Frame> {
    const shown = await this.findFrame();
    if (shown) return shown;
    // Longer than playwright's 30 s: on a loaded machine the workbench can be that long busy
    // loading, and the view's page as long again.
    await this.ui.page.locator('.activitybar .action-item a[aria-label^="Wisp"]').first().click({ timeout: 120_000 });
    return this.frame(120_000);
  }

  /** The chat page's frame, once it is loaded and shows the chat the extension sent it. */
  async frame(timeoutMs = 30_000): Promise<Frame> {
    const frame = await waitFor("the chat webview", () => this.findFrame(), (f) => f !== undefined, timeoutMs);
    return frame!;
  }

  async locator(selector: string): Promise<Locator> {
    return (await this.frame()).locator(selector);
  }

  /** Texts of the conversation's messages, in order (`You …` / `Wisp …`). */
  async turns(): Promise<string[]> {
    return (await this.frame()).locator(".turn").allInnerTexts();
  }

  private async findFrame(): Promise<Frame | undefined> {
    for (const frame of this.ui.page.frames()) {
      if (frame.isDetached()) continue;
      // The prompt box is drawn before the chat comes from the extension, which restores the chat's
      // saved draft into it: text typed in between is replaced (seen once on a loaded machine).
      const found = await frame
        .evaluate(() => document.querySelector("form.composer textarea") !== null && document.querySelectorAll('select[aria-label="Chat"] option').length > 0)
        .catch(() => false);
      if (found) return frame;
    }
    return undefined;
  }
}
