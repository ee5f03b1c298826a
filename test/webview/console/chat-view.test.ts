import assert from "node:assert/strict";
import { join } from "node:path";
import { openWebviewPage, type WebviewPage } from "../support/webview-page";

interface Page {
  send(text: string): void;
  click(text: string): void;
  messages(): string[];
  idle(): boolean;
  sent(): string[][];
  release(): void;
}

describe("console playground chat (Chromium)", function () {
  this.timeout(60_000);
  let web: WebviewPage;
  before(async () => (web = await openWebviewPage(join(import.meta.dirname, "pages/chat-page.ts"))));
  after(() => web?.close());

  const call = <T>(name: keyof Page, arg?: string) => web.page.evaluate(([n, a]) => (window as unknown as { consoleChat: Record<string, (a?: string) => unknown> }).consoleChat[n]!(a), [name, arg] as const) as Promise<T>;

  it("Clear while an answer streams leaves an empty conversation: the next Send has no orphan answer", async () => {
    await call("send", "Tell me a story");
    await web.page.waitForFunction(() => document.querySelector(".messages")!.textContent!.includes("Once upon"));
    await call("click", "Clear");
    await web.page.waitForFunction(() => (window as unknown as { consoleChat: Page }).consoleChat.idle());
    assert.deepEqual(await call("messages"), []);
    await call("send", "Hi");
    await web.page.waitForFunction(() => (window as unknown as { consoleChat: Page }).consoleChat.idle() && document.querySelector(".messages")!.textContent!.includes("Hello!"));
    assert.deepEqual(await call("messages"), ["user: Hi", "assistant: Hello!"]);
    assert.deepEqual((await call<string[][]>("sent"))[1], ["system: You are a helpful assistant.", "user: Hi"]);
  });

  it("a message in Hebrew reads right to left, in its box and in the conversation; an English one left to right", async () => {
    await call("click", "Clear");
    const direction = (selector: string) => web.page.evaluate((s) => [...document.querySelectorAll(s)].map((node) => getComputedStyle(node).direction), selector);
    await web.page.fill("textarea[name=message]", "שלום, מה שלומך?");
    assert.deepEqual(await direction("textarea[name=message]"), ["rtl"]);
    await call("send", "שלום, מה שלומך?");
    await web.page.waitForFunction(() => (window as unknown as { consoleChat: Page }).consoleChat.idle() && document.querySelector(".messages")!.textContent!.includes("Hello!"));
    assert.deepEqual(await direction(".messages .content"), ["rtl", "ltr"]);
  });

  it("Send pressed from the keyboard gives the focus back to the message box when the answer is in", async () => {
    await call("click", "Clear");
    await web.page.fill("textarea[name=message]", "Hold on");
    await web.page.focus("button:text-is('Send')");
    await web.page.keyboard.press("Enter");
    // Send is off while the answer comes: the focus it had is lost.
    await web.page.waitForFunction(() => document.activeElement === document.body);
    await call("release");
    await web.page.waitForFunction(() => (window as unknown as { consoleChat: Page }).consoleChat.idle() && document.querySelectorAll(".messages li").length === 2);
    assert.equal(await web.page.evaluate(() => document.activeElement?.getAttribute("name")), "message");
  });
});
