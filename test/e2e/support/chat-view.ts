import type { Frame, Locator } from "playwright-core";
import { waitFor } from "../../harness/wait-for";
import type { WorkbenchPage } from "../../harness/workbench-page";

/** Set in the workbench's session storage, which its webviews' frames share: their pages then hold back the chat's state. */
const holdFlag = "wisp-e2e-hold-chat-state";

/**
 * Run in every frame before its scripts: a webview page (not the workbench) loaded while the flag is
 * set keeps the `state` messages the extension sends it until `__wispReleaseState()`.
 */
function holdChatState(flag: string): void {
  if (window.top === window) return;
  try {
    if (sessionStorage.getItem(flag) !== "1") return;
  } catch {
    return;
  }
  const held: unknown[] = [];
  let holding = true;
  window.addEventListener(
    "message",
    (event) => {
      if (!holding || (event.data as { type?: unknown } | null)?.type !== "state") return;
      event.stopImmediatePropagation();
      held.push(event.data);
    },
    true,
  );
  (window as unknown as { __wispReleaseState: () => void }).__wispReleaseState = () => {
    holding = false;
    sessionStorage.removeItem(flag);
    for (const data of held.splice(0)) window.postMessage(data, "*");
  };
}

/** The Wisp chat view inside the workbench: its webview is a frame nested in two iframes. */
export class ChatView {
  private holdInstalled = false;

  constructor(readonly ui: WorkbenchPage) {}

  /**
   * Makes the chat page of the next load (a reload of the workbench) keep the chat the extension
   * sends it until `releaseState`: a deterministic stand-in for a slow first message.
   */
  async holdStateOnNextLoad(): Promise<void> {
    if (!this.holdInstalled) await this.ui.page.addInitScript(holdChatState, holdFlag);
    this.holdInstalled = true;
    await this.ui.page.evaluate((flag) => sessionStorage.setItem(flag, "1"), holdFlag);
  }

  /** The prompt box of a chat page whose state is held (see holdStateOnNextLoad), once it is drawn. */
  async heldFrame(timeoutMs = 60_000): Promise<Frame> {
    const frame = await waitFor("the chat webview, its state held", () => this.findFrame(false), (f) => f !== undefined, timeoutMs);
    return frame!;
  }

  /** Lets the held chat state reach the page. */
  async releaseState(frame: Frame): Promise<void> {
    await frame.evaluate(() => (window as unknown as { __wispReleaseState: () => void }).__wispReleaseState());
  }

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

  /** The frame with the chat's prompt box; with `shown`, only once it shows the chat the extension sent it (a user sees that before typing). */
  private async findFrame(shown = true): Promise<Frame | undefined> {
    for (const frame of this.ui.page.frames()) {
      if (frame.isDetached()) continue;
      const found = await frame
        .evaluate((shown) => document.querySelector("form.composer textarea") !== null && (!shown || document.querySelectorAll('select[aria-label="Chat"] option').length > 0), shown)
        .catch(() => false);
      if (found) return frame;
    }
    return undefined;
  }
}
