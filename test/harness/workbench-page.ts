import type { Locator, Page } from "playwright-core";

const quickInput = ".quick-input-widget";
const ghostText = ".monaco-editor .ghost-text-decoration, .monaco-editor .ghost-text";
const quickRow = `${quickInput} .quick-input-list .monaco-list-row`;

/** The real VS Code workbench in the page, driven the way a user does: keyboard, palette, clicks. */
export class WorkbenchPage {
  constructor(readonly page: Page) {}

  async waitReady(timeoutMs = 90_000): Promise<void> {
    await this.page.locator(".monaco-workbench .part.statusbar").waitFor({ timeout: timeoutMs });
  }

  /** A status bar entry by its id (`<extension id>.<item id>` for extensions). */
  statusItem(id: string): Locator {
    return this.page.locator(`.part.statusbar [id="${id}"]`);
  }

  /** Visible text of a status bar entry (icons render as glyphs without text). */
  async statusText(id: string): Promise<string> {
    return normalize(await this.statusItem(id).innerText({ timeout: 5_000 }));
  }

  /** F1, type the command's title, run it (the row with exactly that title, not a longer one that starts the same). */
  async runCommand(title: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await this.openPalette(`>${title}`);
      if (await this.acceptRow(title)) return;
      // An editor or view that finished opening took the keyboard, and the palette closed with it:
      // the Enter would have gone elsewhere, so the command is picked again.
      if (attempt === 3) throw new Error(`the palette closed before "${title}" was run, 3 times (${await this.quickPickSummary()})`);
      console.log(`[workbench] the palette closed before "${title}" was run; picking it again`);
    }
  }

  /** Moves the open quick pick's focus with the arrow keys to the row labelled exactly `label`. */
  async focusQuickRow(label: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const isLabel = (name: string) => name === label || name.startsWith(`${label}, `);
    for (;;) {
      if (isLabel(await this.focusedQuickRow())) {
        // Still so a frame later: the list settled there, so the Enter that follows takes this row.
        await this.page.evaluate(() => new Promise((done) => requestAnimationFrame(done)));
        if (isLabel(await this.focusedQuickRow())) return;
        continue;
      }
      if (Date.now() > deadline) throw new Error(`no quick pick row "${label}" (focused: "${await this.focusedQuickRow()}"; ${await this.quickPickSummary()})`);
      await this.pressInQuickInput("ArrowDown");
    }
  }

  /**
   * The accessible name of the row the quick pick's list has focused (its label, then ", " and its
   * description or keybinding), as its input box tells a screen reader (aria-activedescendant, set as
   * the focus moves). The rows' "focused" class can mark two rows while the list re-renders, one of
   * them the row focused before the last arrow key: taking that one, Enter can run another command.
   */
  private focusedQuickRow(): Promise<string> {
    return this.quickInputBox().evaluate((input) => {
      const id = input.getAttribute("aria-activedescendant");
      const row = id ? document.getElementById(id) : null;
      const rows = row ? [row] : [...document.querySelectorAll(".quick-input-widget .quick-input-list .monaco-list-row.focused")];
      return rows.map((r) => r.getAttribute("aria-label") ?? "").join(" | ");
    });
  }

  /** What the open quick pick shows and where the keyboard is, for a failure message. */
  private async quickPickSummary(): Promise<string> {
    const rows = await this.page.locator(quickRow).evaluateAll((nodes) => nodes.map((n) => n.getAttribute("aria-label")));
    const value = await this.quickInputBox().inputValue({ timeout: 1_000 }).catch(() => "?");
    const active = await this.page.evaluate(() => {
      const e = document.activeElement;
      return e === null ? "none" : `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).split(" ").join(".")}` : ""}`;
    });
    const shown = await this.page.locator(quickInput).isVisible();
    return `${shown ? "shown" : "closed"}, rows: ${JSON.stringify(rows)}, input: ${JSON.stringify(value)}, keyboard on: ${active}`;
  }

  /** F1 with the `>` removed is Quick Open: type the file name, open it. */
  async openFile(name: string): Promise<void> {
    await this.openPalette(name);
    await this.acceptQuickItem(name);
    await this.page.locator(`.tabs-container .tab[data-resource-name="${name}"]`).waitFor();
  }

  /**
   * Presses a key in the open quick input, as a user whose keyboard is on it: a webview clicked
   * before (an iframe) can keep the keyboard focus while one quick input follows another.
   */
  async pressInQuickInput(key: string): Promise<void> {
    await this.quickInputBox().press(key);
  }

  /**
   * Accepts the open input box titled `title` (its text typed already) with Enter, and waits for it
   * to close. An Enter pressed right after the box opened has been lost once in a full run, the box
   * left open with the text in it: then Enter is pressed again, only while that box is still open.
   */
  async acceptInputBox(title: string): Promise<void> {
    const box = this.page.locator(quickInput, { has: this.page.locator(".quick-input-title", { hasText: title }) });
    for (let tries = 1; ; tries++) {
      await this.quickInputBox().press("Enter");
      const closed = await box.waitFor({ state: "hidden", timeout: 5_000 }).then(() => true, () => false);
      if (closed) return;
      if (tries === 3) throw new Error(`the input box "${title}" stayed open after Enter, ${tries} times`);
    }
  }

  /** The visible input of the open quick input (palette, input box or quick pick). */
  quickInputBox(): Locator {
    return this.page.locator(`${quickInput} .quick-input-box input`);
  }

  /**
   * Filters the open quick pick by `label` and accepts the row labelled so, once it has the focus
   * (the row can show before the filter has moved the focus to it).
   */
  async pickQuickItem(label: string): Promise<void> {
    await this.quickInputBox().fill(label);
    if (!(await this.acceptRow(label))) throw new Error(`the quick pick closed before "${label}" was picked (${await this.quickPickSummary()})`);
  }

  /**
   * Once a row shows `label`, moves the focus to the row labelled exactly so and accepts it; false
   * when the quick input had closed by then (it closes when it loses the keyboard), so that no
   * Enter was pressed.
   */
  private async acceptRow(label: string): Promise<boolean> {
    await this.page.locator(quickRow, { hasText: label }).first().waitFor();
    await this.focusQuickRow(label);
    if (!(await this.quickInputBox().isVisible())) return false;
    await this.pressInQuickInput("Enter");
    return true;
  }

  /** Types into the active editor at the end of the document. */
  async typeAtEnd(text: string): Promise<void> {
    await this.page.locator(".editor-instance .monaco-editor .view-lines").first().click();
    await this.page.keyboard.press("Control+End");
    await this.page.keyboard.type(text);
  }

  /** The text the active editor shows (as rendered in its view lines). */
  async editorText(): Promise<string> {
    return normalize(await this.page.locator(".editor-instance .monaco-editor .view-lines").first().innerText());
  }

  /** Waits for inline-completion ghost text in the editor and returns it as the user reads it. */
  async waitForGhostText(timeoutMs = 30_000): Promise<string> {
    await this.page.locator(ghostText).first().waitFor({ timeout: timeoutMs });
    return (await this.page.locator(ghostText).evaluateAll(joinGhostLines)).replace(/\u00a0/g, " ");
  }

  /** Waits until no ghost text is drawn (dismissed or accepted). */
  async waitForNoGhostText(timeoutMs = 10_000): Promise<void> {
    await this.page.locator(ghostText).first().waitFor({ state: "detached", timeout: timeoutMs });
  }

  /** Messages of the notification toasts currently shown. */
  async notifications(): Promise<string[]> {
    const messages = await this.page.locator(".notifications-toasts .notification-list-item-message").allInnerTexts();
    return messages.map(normalize);
  }

  /**
   * F1, then `text` in the box. Opened again when it closes before it takes the text: a view or
   * editor that finishes opening moves the focus (the walkthrough focuses a step it expanded), and
   * the palette closes when it loses the focus, as it does for a user.
   */
  private async openPalette(text: string): Promise<void> {
    const input = this.quickInputBox();
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press("F1");
      try {
        await input.waitFor({ state: "visible", timeout: 10_000 });
        await input.fill(text, { timeout: 5_000 });
        return;
      } catch (error) {
        if (attempt === 3 || (await input.isVisible())) throw error;
      }
    }
  }

  /**
   * Clicks the item of the open context menu named `name`. VS Code's menu items take a mouse-up
   * only from 100 ms after they are drawn (so that the right click's own release picks nothing),
   * which on a loaded machine can be after Playwright's click: clicked again while the menu stays.
   */
  async clickMenuItem(name: string | RegExp): Promise<void> {
    const item = this.page.getByRole("menuitem", { name });
    for (let attempt = 1; ; attempt++) {
      // A later click may find the menu closed by the one before after all: the wait below says.
      await item.click(attempt === 1 ? {} : { timeout: 2_000 }).catch((error: unknown) => {
        if (attempt === 1) throw error;
      });
      try {
        await item.waitFor({ state: "hidden", timeout: 2_000 });
        return;
      } catch (error) {
        if (attempt === 5) throw error;
      }
    }
  }

  private async acceptQuickItem(label: string): Promise<void> {
    await this.page.locator(quickRow, { hasText: label }).first().waitFor();
    await this.pressInQuickInput("Enter");
  }
}

/** Ghost text is syntax-highlighted, one element per token: join the innermost ones line by line. */
function joinGhostLines(nodes: Element[]): string {
  const leaves = nodes.filter((node) => !nodes.some((other) => other !== node && node.contains(other)));
  const lines = new Map<Element, string>();
  for (const leaf of leaves) {
    const line = leaf.closest(".view-line") ?? leaf.parentElement ?? leaf;
    lines.set(line, (lines.get(line) ?? "") + (leaf.textContent ?? ""));
  }
  return [...lines.values()].join("\n");
}

/** Editors and the status bar use non-breaking spaces; compare text the way a user reads it. */
function normalize(text: string): string {
  return text.replace(/\u00a0/g, " ").trim();
}
