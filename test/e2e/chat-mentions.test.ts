import * as assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { startScriptedChatServer, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import type { WorkbenchPage } from "../harness/workbench-page";
import { ChatView } from "./support/chat-view";
import { useWorkbench } from "./support/workbench-suite";

const pricing = "export function roundPrice(amount: number): number {\n  return Math.round(amount * 100) / 100;\n}\n";
const checkout = 'import { roundPrice } from "./pricing";\n\nexport const total = roundPrice(19.999);\n';
const secret = "tok_wisp_e2e_5e1f";

describe("@-mentions in the chat's prompt box (real VS Code UI, scripted server, code-server + Chromium)", () => {
  const key = `sk-wisp-mentions-${Date.now().toString(36)}`;
  let server: ScriptedChatServer;
  let ui: WorkbenchPage;
  let chat: ChatView;
  let frame: Frame;

  const suite = useWorkbench(async (temp) => {
    const vsix = ensureVsix();
    const started = await startScriptedChatServer({ key });
    const folder = temp.make("e2e-chat-mentions");
    mkdirSync(join(folder, "src"));
    writeFileSync(join(folder, "src", "pricing.ts"), pricing);
    writeFileSync(join(folder, "src", "checkout.ts"), checkout);
    writeFileSync(join(folder, ".env"), `PAYMENT_TOKEN=${secret}\n`);
    return { server: started, workbench: { vsixes: [vsix], folder, settings: { "wisp.baseUrl": started.baseUrl, "wisp.completion.enabled": false }, env: { WISP_API_KEY: key }, tempPrefix: "e2e-chat-mentions-" } };
  });
  before(async () => {
    ({ server, ui } = suite);
    chat = new ChatView(ui);
    frame = await chat.open();
  });

  const prompt = () => frame.locator(".composer textarea");
  /**
   * Clicks into the prompt box until it has the keyboard: right after an editor took the focus,
   * the workbench can hand the first click to the webview's container rather than the page.
   */
  async function focusPrompt(): Promise<void> {
    const focused = () => frame.evaluate(() => document.hasFocus() && document.activeElement?.matches(".composer textarea") === true);
    await waitFor("the prompt box focused", async () => (await focused()) || (await prompt().click(), await focused()), Boolean);
  }
  const menu = () => frame.locator(".mention-menu");
  const options = () => menu().locator("[role=option] .mention-label").allInnerTexts();
  const activeOption = () => menu().locator("[role=option][aria-selected=true] .mention-label").innerText();
  const pendingChips = () => frame.locator(".chips.pending .chip > span").allInnerTexts();

  it("typing @ opens the list, typing filters it, and the keyboard alone picks a file", async () => {
    await focusPrompt();
    await ui.page.keyboard.type("@");
    await menu().waitFor({ state: "visible" });
    assert.deepEqual((await options()).slice(0, 6), ["@file", "@symbol", "@problems", "@open", "@selection", "@git"]);
    await ui.page.keyboard.type("fi");
    await waitFor("the list filtered to @file", options, (o) => o[0] === "@file" && !o.includes("@git"));
    await ui.page.keyboard.press("Enter");
    await waitFor("the prompt narrowed to files", () => prompt().inputValue(), (v) => v === "@file:");
    await ui.page.keyboard.type("pric");
    await waitFor("pricing.ts offered first", options, (o) => o[0] === "pricing.ts");
    await ui.page.keyboard.press("Enter");
    await waitFor("the file attached as a chip", pendingChips, (chips) => chips.includes("src/pricing.ts, lines 1-3"));
    assert.equal(await prompt().inputValue(), "", "the typed mention became the chip");
    assert.ok(await menu().isHidden(), "the list closed");
    await ui.page.keyboard.type("What does this round to?");
    server.queue({ text: "To cents." });
    await ui.page.keyboard.press("Enter");
    await waitFor("the request", async () => server.chatRequests.length, (n) => n === 1);
    const messages = server.chatRequests[0]!.messages as { content: string }[];
    assert.ok(messages.at(-1)!.content.startsWith("What does this round to?\n\nsrc/pricing.ts, lines 1-3 (typescript):\n```typescript\nexport function roundPrice"));
  });

  it("arrow keys move through the list, Escape closes it, and a mouse click picks", async () => {
    await ui.openFile("checkout.ts");
    frame = await chat.frame();
    await focusPrompt();
    await ui.page.keyboard.type("@");
    await waitFor("the @ typed", () => prompt().inputValue(), (v) => v === "@");
    await menu().waitFor({ state: "visible" });
    assert.equal(await activeOption(), "@file");
    await ui.page.keyboard.press("ArrowDown");
    assert.equal(await activeOption(), "@symbol");
    await ui.page.keyboard.press("ArrowUp");
    await ui.page.keyboard.press("ArrowUp");
    assert.equal(await activeOption(), (await options()).at(-1));
    await ui.page.keyboard.press("Escape");
    assert.ok(await menu().isHidden());
    assert.equal(await prompt().inputValue(), "@", "Escape leaves the text as typed");
    await ui.page.keyboard.type("op");
    await menu().waitFor({ state: "visible" });
    await menu().locator("[role=option]", { hasText: "@open" }).click();
    await waitFor("the open editor attached", pendingChips, (chips) => chips.includes("src/checkout.ts, lines 1-3"));
  });

  it("@.env asks first: Don't send leaves the secret out of the request, Send attaches it", async () => {
    const sent = () => JSON.stringify(server.chatRequests);
    /** Picks @.env from the list and answers the warning that follows. */
    async function mentionEnv(answer: "Send" | "Don't send"): Promise<void> {
      await focusPrompt();
      await ui.page.keyboard.type("@.env");
      await menu().waitFor({ state: "visible" });
      await waitFor(".env offered", activeOption, (o) => o === ".env");
      await ui.page.keyboard.press("Enter");
      const dialog = ui.page.locator(".monaco-dialog-box");
      await dialog.waitFor();
      assert.match(await dialog.innerText(), new RegExp(`\\.env matches wisp\\.sensitiveFiles/\\.wispignore and may contain secrets\\. Send it to ${new URL(server.baseUrl).host}\\?`));
      await dialog.getByRole("button", { name: answer, exact: true }).click();
      await dialog.waitFor({ state: "detached" });
    }
    async function ask(question: string): Promise<void> {
      const before = server.chatRequests.length;
      const answers = await frame.locator(".turn.assistant").count();
      await focusPrompt();
      await prompt().fill(question);
      server.queue({ text: "Noted." });
      await ui.page.keyboard.press("Enter");
      await waitFor("the request", async () => server.chatRequests.length, (n) => n === before + 1);
      // Until the answer has ended the prompt box takes no Enter (the Stop button stands for Send).
      const ended = async () =>
        (await frame.locator(".turn.assistant").count()) > answers &&
        /answer tokens/.test(await frame.locator(".turn.assistant").last().innerText()) &&
        (await frame.locator(".composer button[type=submit]").isVisible());
      await waitFor("the answer to end", ended, Boolean);
    }
    await ui.page.keyboard.press("Escape");
    await prompt().fill("");
    await mentionEnv("Don't send");
    await waitFor("the notice", () => frame.locator(".notice").innerText(), (t) => t.includes(".env was not attached: it matches wisp.sensitiveFiles/.wispignore and you chose not to send it."));
    assert.ok(!(await pendingChips()).some((chip) => chip.startsWith(".env")), "nothing of .env attached");
    await ask("Which token does the payment use?");
    assert.ok(!sent().includes(secret), "the secret stayed here");
    await mentionEnv("Send");
    await waitFor("the file attached as a chip", pendingChips, (chips) => chips.includes(".env, line 1"));
    await ask("Which token does the payment use now?");
    assert.ok(JSON.stringify(server.chatRequests.at(-1)).includes(`PAYMENT_TOKEN=${secret}`), "sent after Send");
  });

  it("a code block that names a workspace file offers Open, which opens that file", async () => {
    await ui.page.keyboard.press("Escape");
    await focusPrompt();
    server.queue({ text: "In `src/pricing.ts`:\n\n```ts\nexport function roundPrice(amount: number): number {\n  return Number(amount.toFixed(2));\n}\n```\n" });
    await prompt().fill("");
    await ui.page.keyboard.type("Round with toFixed");
    await ui.page.keyboard.press("Enter");
    const open = frame.locator(".turn.assistant").last().locator(".code-bar button", { hasText: "Open src/pricing.ts" });
    await open.waitFor();
    assert.deepEqual(await frame.locator(".turn.assistant").last().locator(".code-bar button").allInnerTexts(), ["Open src/pricing.ts", "Copy", "Insert", "Apply", "New File"]);
    await open.click();
    await ui.page.locator('.tabs-container .tab.active[data-resource-name="pricing.ts"]').waitFor();
  });

  it("an input method's Enter commits its text and sends nothing; the next Enter sends the text", async () => {
    await ui.page.keyboard.press("Escape");
    await focusPrompt();
    await prompt().fill("");
    const sent = server.chatRequests.length;
    const users = await frame.locator(".turn.user").count();
    // What the page saw of each Enter: the test is only worth something if the first came while composing.
    await frame.evaluate(() => {
      const seen: boolean[] = [];
      (window as unknown as { enters: boolean[] }).enters = seen;
      document.addEventListener("keydown", (e) => e.key === "Enter" && seen.push(e.isComposing), { capture: true });
    });
    const enters = () => frame.evaluate(() => (window as unknown as { enters: boolean[] }).enters);
    // Chromium's own input-method path (as a Japanese IME drives it): a composition, Enter, the commit.
    const cdp = await ui.page.context().newCDPSession(ui.page);
    try {
      await cdp.send("Input.imeSetComposition", { text: "こんにちは", selectionStart: 5, selectionEnd: 5 });
      await waitFor("the composition in the box", () => prompt().inputValue(), (v) => v === "こんにちは");
      await cdp.send("Input.dispatchKeyEvent", { type: "rawKeyDown", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 });
      await cdp.send("Input.dispatchKeyEvent", { type: "keyUp", key: "Enter", code: "Enter", windowsVirtualKeyCode: 13 });
      await cdp.send("Input.insertText", { text: "こんにちは" });
    } finally {
      await cdp.detach();
    }
    await waitFor("the Enter seen while composing", enters, (e) => e.length === 1);
    assert.deepEqual(await enters(), [true]);
    assert.equal(await prompt().inputValue(), "こんにちは", "the committed text is in the box");
    server.queue({ text: "Hello." });
    await ui.page.keyboard.press("Enter");
    // Once the answer is in and the box empty, every request made before it has been made too (the
    // view's messages are handled in order): the question went once, with the committed text.
    await waitFor("the answer, the box empty", async () => [await frame.locator(".turn.assistant").last().innerText(), await prompt().inputValue()], ([t, v]) => t.includes("Hello.") && v === "");
    assert.equal(server.chatRequests.length, sent + 1, "one question sent: the input method's Enter sent nothing");
    assert.deepEqual(await frame.locator(".turn.user").count(), users + 1);
    // The question, then what the workspace adds (the files it found).
    assert.equal((server.chatRequests.at(-1)!.messages as { content: string }[]).at(-1)!.content.split("\n")[0], "こんにちは");
  });
});
