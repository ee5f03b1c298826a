import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ChatView } from "../../test/e2e/support/chat-view";
import { e2eResultsDir } from "../../test/e2e/support/screenshot-on-failure";
import { ScriptedApi } from "../../test/harness/scripted-api";
import { startScriptedChatServer } from "../../test/harness/scripted-chat-server";
import { TempDirs } from "../../test/harness/temp-dirs";
import type { Toolchain } from "../../test/harness/toolchain";
import { waitFor } from "../../test/harness/wait-for";
import { WorkbenchPage } from "../../test/harness/workbench-page";
import { startWorkbench, type WorkbenchSession } from "../../test/harness/workbench-session";
import { cartFile, cartText, cartTotalLineCount, chat, edit, ghostText } from "./cart-sample";
import { saveShot } from "./save-shot";

const statusId = "wisp.wisp.wisp.status";
const key = "sk-wisp-screenshots";
const model = "code-model";

/** What a shot needs: the toolchain, the packaged extension, and where progress is told. */
export interface ShotSetup {
  toolchain: Toolchain;
  vsix: string;
  say: (line: string) => void;
}

/**
 * Opens the sample workspace (`text` as cart.ts) in code-server + Chromium with the packaged
 * Wisp against `baseUrl`, runs `shoot` once Wisp is ready, and stops everything after it.
 */
async function withWorkbench(setup: ShotSetup, baseUrl: string, text: string, settings: Record<string, unknown>, shoot: (ui: WorkbenchPage) => Promise<void>): Promise<void> {
  const temp = new TempDirs();
  let session: WorkbenchSession | undefined;
  try {
    // Named like a project: the window's title shows it.
    const folder = join(temp.make("screenshots-workspace"), "shop");
    mkdirSync(folder);
    writeFileSync(join(folder, cartFile), text);
    session = await startWorkbench({
      toolchain: setup.toolchain,
      vsixes: [setup.vsix],
      folder,
      // No minimap: the window's width goes to the code.
      settings: { "wisp.baseUrl": baseUrl, "editor.minimap.enabled": false, ...settings },
      env: { WISP_API_KEY: key },
      tempPrefix: "screenshots-",
    });
    const ui = new WorkbenchPage(session.page!);
    await ui.waitReady();
    await waitFor("Wisp ready in the status bar", () => ui.statusText(statusId).catch(() => ""), (t) => /^Wisp( \d+ms)?$/.test(t), 60_000);
    await ui.openFile(cartFile);
    await statusBarSettled(ui);
    await shoot(ui);
  } catch (error) {
    // What the window showed when it went wrong, as the e2e suites keep it.
    const failure = join(e2eResultsDir, "screenshots-failure.png");
    mkdirSync(e2eResultsDir, { recursive: true });
    await session?.page?.screenshot({ path: failure }).then(() => setup.say(`the window at the failure: ${failure}`), () => {});
    throw error;
  } finally {
    await session?.stop();
    temp.removeAll();
  }
}

/** Ghost text after the cursor, from a scripted completion. */
export async function ghostTextShot(setup: ShotSetup, file: string): Promise<number> {
  const server = await ScriptedApi.start({ key, models: [model], complete: () => ghostText.suggestion });
  let size = 0;
  try {
    // The function being written has no body yet: TypeScript's errors about that are not the picture.
    await withWorkbench(setup, server.baseUrl, ghostText.file, { "typescript.validate.enable": false }, async (ui) => {
      await ui.typeAtEnd(ghostText.typed);
      const lastLine = ghostText.suggestion.split("\n").at(-2)!.trim();
      const shown = await waitFor("the whole ghost text", () => ui.waitForGhostText().catch(() => ""), (t) => t.includes(lastLine), 30_000);
      setup.say(`ghost text shown:\n${shown}`);
      await statusBarSettled(ui);
      size = await saveShot(ui.page, file);
    });
  } finally {
    await server.close();
  }
  return size;
}

/** The chat's answer to a question about the selected function, then an inline edit of it waiting for Accept. */
export async function chatAndEditShots(setup: ShotSetup, files: { chat: string; edit: string }): Promise<{ chat: number; edit: number }> {
  const server = await startScriptedChatServer({ key, models: [{ id: model, context_length: 32_768 }] });
  const sizes = { chat: 0, edit: 0 };
  try {
    await withWorkbench(setup, server.baseUrl, cartText, { "wisp.completion.enabled": false }, async (ui) => {
      await selectCartTotal(ui);
      await ui.runCommand("Wisp: Ask About Selection");
      const frame = await new ChatView(ui).frame();
      // Typed only once the view has its state (the model listed): the first state sets the prompt box's draft.
      await waitFor("the chat's model listed", () => frame.locator('select[aria-label="Model"]').inputValue().catch(() => ""), (m) => m === model);
      server.queue({ text: chat.answer, tokensPerSecond: 150 });
      await frame.locator(".composer textarea").fill(chat.question);
      await frame.locator(".composer textarea").press("Enter");
      const footer = frame.locator(".turn.assistant").last().locator(".turn-footer");
      await waitFor("the answer to end", () => footer.innerText().catch(() => ""), (t) => /answer tokens/.test(t), 60_000);
      await widenSideBar(ui, 490);
      // The question (with the code it was asked about) and the answer, from the top.
      await frame.locator(".conversation").evaluate((list) => list.scrollTo({ top: 0 }));
      sizes.chat = await saveShot(ui.page, files.chat);

      server.queue({ text: edit.answer });
      await selectCartTotal(ui);
      await ui.page.keyboard.press("Control+I");
      await ui.quickInputBox().waitFor({ state: "visible" });
      await ui.quickInputBox().fill(edit.instruction);
      await ui.page.locator(".quick-input-widget .quick-input-list .monaco-list-row", { hasText: edit.instruction }).first().waitFor();
      await ui.pressInQuickInput("Enter");
      await ui.page.locator(".monaco-editor .codelens-decoration a", { hasText: "Accept All" }).first().waitFor({ timeout: 30_000 });
      // The proposal alone, not the selection drawn over it, in the whole window.
      await ui.runCommand("View: Close Primary Side Bar");
      await ui.page.keyboard.press("Control+End");
      const hunkAccept = ui.page.locator(".monaco-editor .codelens-decoration a").filter({ hasText: /^\s*Accept\s*$/ });
      await waitFor("Accept above each change", () => hunkAccept.count(), (n) => n === 2);
      // Decorations are drawn in a render of their own after the text: wait for the strike-through.
      const removed = ui.page.locator(".view-lines .view-line span", { hasText: "return net + net * taxRate;" }).first();
      await waitFor("the removed line struck through", () => removed.evaluate((span) => [span, ...span.querySelectorAll("span")].some((s) => getComputedStyle(s).textDecorationLine.includes("line-through"))), Boolean);
      sizes.edit = await saveShot(ui.page, files.edit);
    });
  } finally {
    await server.close();
  }
  return sizes;
}

/** Extensions starting and TypeScript's look at a file just shown have progress in the status bar for a while: let it end. */
async function statusBarSettled(ui: WorkbenchPage): Promise<void> {
  await ui.page.locator(".part.statusbar", { hasText: /Analyzing|Activating Extensions/ }).waitFor({ state: "detached", timeout: 60_000 });
}

/** Drags the side bar's edge so that it is `width` pixels wide. */
async function widenSideBar(ui: WorkbenchPage, width: number): Promise<void> {
  const bar = await ui.page.locator(".part.sidebar").boundingBox();
  if (bar === null) throw new Error("no side bar shown");
  const y = bar.y + bar.height / 2;
  await ui.page.mouse.move(bar.x + bar.width + 1, y);
  await ui.page.mouse.down();
  await ui.page.mouse.move(bar.x + width, y, { steps: 10 });
  await ui.page.mouse.up();
}

/** Selects `cartTotal`, the file's last function, with the keyboard. */
async function selectCartTotal(ui: WorkbenchPage): Promise<void> {
  await ui.page.locator(".editor-instance .monaco-editor .view-lines").first().click();
  await ui.page.keyboard.press("Control+End");
  for (let i = 0; i < cartTotalLineCount; i++) await ui.page.keyboard.press("Shift+ArrowUp");
}
