import assert from "node:assert/strict";
import { join } from "node:path";
import type { HostMessage } from "../../../src/core/chat/protocol";
import { repoRoot } from "../../harness/toolchain";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

type Page = { start(): void; deliver(message: { turns: readonly never[]; streaming: boolean } | HostMessage): void; posted(): { type: string; requestId?: number }[] };

/**
 * The colours VS Code gives a webview in its High Contrast (Dark) theme, for what these elements
 * use (from VS Code 1.93's colour registry, hcDark column): the ones it defines null there, such
 * as list.activeSelectionBackground and button.secondaryBackground, are not set at all.
 */
const highContrastDark: Record<string, string> = {
  "--vscode-foreground": "#ffffff",
  "--vscode-sideBar-background": "#000000",
  "--vscode-focusBorder": "#f38518",
  "--vscode-contrastBorder": "#6fc3df",
  "--vscode-contrastActiveBorder": "#f38518",
  "--vscode-button-background": "#000000",
  "--vscode-button-foreground": "#ffffff",
  "--vscode-button-secondaryForeground": "#ffffff",
  "--vscode-button-border": "#6fc3df",
  "--vscode-panel-border": "#6fc3df",
  "--vscode-list-focusOutline": "#f38518",
  "--vscode-quickInput-background": "#000000",
  "--vscode-quickInput-foreground": "#ffffff",
  "--vscode-widget-border": "#6fc3df",
  "--vscode-input-background": "#000000",
  "--vscode-input-foreground": "#ffffff",
  "--vscode-input-border": "#6fc3df",
  "--vscode-errorForeground": "#f48771",
};

describe("chat panel in a High Contrast theme (webview, Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => {
    web = await openWebviewPage(join(import.meta.dirname, "pages/chat-page.ts"));
    await web.page.addStyleTag({ path: join(repoRoot, "media/chat.css") });
    await web.page.evaluate((colours) => Object.entries(colours).forEach(([name, value]) => document.documentElement.style.setProperty(name, value)), highContrastDark);
  });
  after(() => web?.close());
  beforeEach(() => web.page.evaluate(() => (window as unknown as { chatPage: Page }).chatPage.start()));

  const deliver = (message: Parameters<Page["deliver"]>[0]) => web.page.evaluate((m) => (window as unknown as { chatPage: Page }).chatPage.deliver(m), message);
  /** How an element looks on the page: its fill laid over the panel's, its text colour, and the lines drawn around it. */
  const looks = (selector: string) => web.page.evaluate((s) => {
    const node = document.querySelector(s)!;
    const style = getComputedStyle(node);
    // A fully transparent colour draws nothing (written inline: the page has no helper functions).
    const [fillSeen, borderSeen, outlineSeen] = [style.backgroundColor, style.borderColor, style.outlineColor].map((c) => c !== "transparent" && !/rgba\(.*, 0\)$/.test(c));
    const fill = fillSeen ? style.backgroundColor : getComputedStyle(document.body).backgroundColor;
    const border = style.borderStyle !== "none" && parseFloat(style.borderWidth) > 0 && borderSeen ? `${style.borderStyle} ${style.borderColor}` : "none";
    const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) > 0 && outlineSeen ? `${style.outlineStyle} ${style.outlineColor}` : "none";
    return { fill, text: style.color, border, outline };
  }, selector);

  it("the mode chosen in the switch (Ask or Agent) looks different from the other", async () => {
    await deliver({ turns: [], streaming: false });
    assert.equal(await web.page.getAttribute(".modes .mode[aria-pressed=true]", "title"), "Ask: chat about your code");
    assert.notDeepEqual(await looks(".modes .mode[aria-pressed=true]"), await looks(".modes .mode[aria-pressed=false]"));
  });

  it("the @ list's active item (the one Enter picks) looks different from the others", async () => {
    await deliver({ turns: [], streaming: false });
    await web.page.focus("textarea");
    await web.page.keyboard.type("@");
    const query = (await web.page.evaluate(() => (window as unknown as { chatPage: Page }).chatPage.posted())).filter((m) => m.type === "mentionQuery").at(-1)!;
    await deliver({ type: "mentionItems", requestId: query.requestId!, items: [{ id: "1", kind: "file", label: "src/cart.ts" }, { id: "2", kind: "file", label: "src/total.ts" }] });
    assert.equal(await web.page.textContent(".mention-menu li.active"), "src/cart.ts");
    assert.notDeepEqual(await looks(".mention-menu li.active"), await looks(".mention-menu li:not(.active)"));
  });

  it("View as Code's chosen language tab looks different from the others", async () => {
    await deliver({ turns: [], streaming: false });
    await deliver({ type: "snippets", note: "", snippets: [{ language: "curl", label: "curl", code: "curl …" }, { language: "python", label: "Python", code: "import openai" }] });
    assert.equal(await web.page.textContent(".snippets [role=tab][aria-selected=true]"), "curl");
    // The panel focuses the chosen tab: its focus ring is not what tells it apart once the focus moves on.
    await web.page.focus("textarea");
    assert.notDeepEqual(await looks(".snippets [role=tab][aria-selected=true]"), await looks(".snippets [role=tab][aria-selected=false]"));
  });

  it("Stop, shown while an answer streams, has text that stands out from its fill (WCAG's 4.5:1)", async () => {
    await deliver({ turns: [], streaming: true });
    const ratio = await web.page.evaluate(() => {
      const style = getComputedStyle(document.querySelector("button.stop")!);
      // Relative luminance of an rgb() colour, and the contrast ratio of two, as WCAG 2 defines them.
      const [text, fill] = [style.color, style.backgroundColor].map((colour) => {
        const [r, g, b] = colour.match(/[\d.]+/g)!.slice(0, 3).map((v) => Number(v) / 255).map((c) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
        return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
      });
      return (Math.max(text!, fill!) + 0.05) / (Math.min(text!, fill!) + 0.05);
    });
    assert.ok(ratio >= 4.5, `contrast ${ratio.toFixed(2)}:1`);
  });
});
