import * as assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Frame } from "playwright-core";
import { longAnswer, startScriptedChatServer, tokenPieces, type ScriptedChatServer } from "../harness/scripted-chat-server";
import { ensureVsix } from "../harness/vsix";
import { waitFor } from "../harness/wait-for";
import type { WorkbenchPage } from "../harness/workbench-page";
import { ChatView } from "./support/chat-view";
import { measureStreaming, summarize } from "./support/render-timing";
import { summarizeRendererTasks, traceRendererTasks } from "./support/renderer-trace";
import { useWorkbench } from "./support/workbench-suite";

/** Markup a model could produce to attack the page; each payload would mark the body if it ran. */
const hostile = [
  "Here is **bold** text and a [safe link](https://example.com/docs).",
  "",
  `<img src=x onerror="document.body.dataset.pwned='img'">`,
  "",
  `<script>document.body.dataset.pwned='script'</script>`,
  "",
  "[click me](javascript:document.body.dataset.pwned='link')",
  "",
  `<a href="javascript:document.body.dataset.pwned='raw-link'">raw link</a>`,
  "",
  `![picture](x" onerror="document.body.dataset.pwned='markdown-image')`,
  "",
  `<iframe src="javascript:parent.document.body.dataset.pwned='iframe'"></iframe> <svg onload="document.body.dataset.pwned='svg'"></svg>`,
  "",
  "```html",
  "<script>alert('shown as code')</script>",
  "```",
].join("\n");

describe("Chat rendering in the real VS Code UI (scripted server, code-server + Chromium)", () => {
  const key = `sk-wisp-chat-${Date.now().toString(36)}`;
  let server: ScriptedChatServer;
  let ui: WorkbenchPage;
  let chat: ChatView;
  const suite = useWorkbench(async (temp) => {
    const vsix = ensureVsix();
    const started = await startScriptedChatServer({ key });
    const folder = temp.make("e2e-chat-rendering");
    writeFileSync(join(folder, "notes.ts"), "// notes\n");
    return { server: started, workbench: { vsixes: [vsix], folder, settings: { "wisp.baseUrl": started.baseUrl }, env: { WISP_API_KEY: key }, tempPrefix: "e2e-chat-render-" } };
  });
  before(() => {
    ({ server, ui } = suite);
    chat = new ChatView(ui);
  });

  async function ask(frame: Frame, question: string): Promise<void> {
    const count = await frame.locator(".turn.assistant").count();
    await frame.locator(".composer textarea").fill(question);
    await frame.locator(".composer textarea").press("Enter");
    await frame.locator(".turn.assistant").nth(count).waitFor();
  }

  const answerEnded = (frame: Frame) =>
    waitFor("the answer to end", () => frame.locator(".turn.assistant").last().locator(".turn-footer").innerText().catch(() => ""), (t) => /answer tokens|Retry/.test(t), 60_000);

  /** Nothing hostile made it into the page, and nothing ran. */
  async function assertInert(frame: Frame): Promise<void> {
    const report = await frame.evaluate(() => {
      const root = document.querySelector(".turns")!;
      return {
        pwned: document.body.dataset.pwned ?? null,
        active: root.querySelectorAll("script, img, iframe, svg, object, embed, style, link, form").length,
        handlers: [...root.querySelectorAll("*")].flatMap((e) => [...e.attributes].filter((a) => a.name.startsWith("on")).map((a) => a.name)),
        hrefs: [...root.querySelectorAll("a")].map((a) => a.getAttribute("href")),
        text: (root as HTMLElement).innerText,
      };
    });
    assert.equal(report.pwned, null, "no payload ran");
    assert.equal(report.active, 0, "no active elements");
    assert.deepEqual(report.handlers, [], "no event-handler attributes");
    assert.ok(report.hrefs.every((href) => href === null || /^(https?:|mailto:)/.test(href)), `links: ${report.hrefs.join(", ")}`);
    assert.ok(report.hrefs.includes("https://example.com/docs"), "the safe link is a link");
    // Raw HTML is not markup here: the reader sees it as text.
    assert.ok(report.text.includes(`<script>document.body.dataset.pwned='script'</script>`));
    assert.ok(report.text.includes("<script>alert('shown as code')</script>"));
  }

  it("renders markdown with highlighted code, and hostile HTML and links in an answer stay inert", async () => {
    const frame = await chat.open();
    await frame.evaluate(() => {
      (window as unknown as { violations: string[] }).violations = [];
      document.addEventListener("securitypolicyviolation", (e) => (window as unknown as { violations: string[] }).violations.push(e.violatedDirective));
    });
    server.queue({ text: hostile });
    await ask(frame, "Show me something nasty");
    await answerEnded(frame);
    const answer = frame.locator(".turn.assistant").last();
    assert.equal(await answer.locator("strong").innerText(), "bold");
    assert.equal(await answer.locator(".code-frame .code-language").innerText(), "html");
    assert.ok((await answer.locator(".code-frame code span[class^='hljs-']").count()) > 0, "the code block is highlighted");
    for (const text of ["click me", "raw link"]) await answer.locator("a, p", { hasText: text }).first().click();
    // Click handlers run during the click; what they would queue (a javascript: navigation) runs
    // before the frame's next rendered frame and the task after it.
    await frame.evaluate(() => new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0))));
    await assertInert(frame);
    assert.deepEqual(await frame.evaluate(() => (window as unknown as { violations: string[] }).violations), [], "nothing even tried to run");
  });

  it("a failed request shows inline with a way out, and Retry answers", async () => {
    const frame = await chat.frame();
    server.queue({ error: { status: 404, message: "The model `scripted-chat` does not exist.", code: "model_not_found" } }, { text: "Recovered." });
    await ask(frame, "Are you there?");
    const error = frame.locator(".turn.assistant").last().locator(".error");
    await error.waitFor();
    assert.match(await error.locator("p").innerText(), /scripted-chat/);
    assert.deepEqual(await error.locator("button").allInnerTexts(), ["Select Model", "Retry"]);
    await error.locator("button", { hasText: "Retry" }).click();
    await waitFor("the retried answer", () => frame.locator(".turn.assistant").last().locator(".markdown").innerText(), (t) => t.trim() === "Recovered.");
    assert.equal(await frame.locator(".turn .error").count(), 0, "the failed answer was replaced");
  });

  it("Insert puts a code block at the editor's cursor; New File opens it in a new editor", async () => {
    await ui.openFile("notes.ts");
    await ui.typeAtEnd("// cursor here: ");
    const frame = await chat.frame();
    server.queue({ text: "Add this:\n\n```ts\nexport const answer = 42;\n```\n" });
    await ask(frame, "Give me a constant");
    await answerEnded(frame);
    const block = frame.locator(".turn.assistant").last().locator(".code-frame");
    await block.locator("button", { hasText: "Insert" }).click();
    await waitFor("the code in the editor", () => ui.editorText(), (t) => t.includes("// cursor here: export const answer = 42;"));
    await block.locator("button", { hasText: "New File" }).click();
    await ui.page.locator(".tabs-container .tab", { hasText: "Untitled" }).waitFor();
    await waitFor("the new file's text", () => ui.editorText(), (t) => t.trim() === "export const answer = 42;");
    await ui.runCommand("View: Revert and Close Editor");
  });

  it("streams a 2,000-token answer with several code blocks; prints long tasks, the webview's work per task and chunk-to-paint times", async () => {
    const frame = await chat.open();
    const text = longAnswer(2000);
    const tokens = tokenPieces(text).length;
    server.queue({ text, tokensPerSecond: 250 });
    const { result: timing, tasks } = await traceRendererTasks(ui.page, () =>
      measureStreaming(frame, async () => {
        await ask(frame, "Write a long answer");
        await answerEnded(frame);
      }),
    );
    const answer = frame.locator(".turn.assistant").last();
    assert.equal(await answer.locator(".code-frame").count(), (text.match(/^```\w+$/gm) ?? []).length, "every code block rendered");
    assert.ok((await answer.locator(".markdown").innerText()).includes("The end of a long answer."));
    assert.match(await answer.locator(".status").innerText(), new RegExp(`42 prompt \\+ ${tokens} answer tokens`));
    console.log(`      ${summarize(timing, tokens)}`);
    for (const line of summarizeRendererTasks(tasks)) console.log(`      ${line}`);
    assert.ok(timing.deltas > 1, `the page received the answer as a stream (${timing.deltas} messages)`);
  });

  it("a reload restores the conversation (still inert) and where it was scrolled to", async () => {
    const frame = await chat.frame();
    const top = await frame.evaluate(() => {
      const list = document.querySelector<HTMLElement>(".conversation")!;
      list.scrollTop = Math.floor((list.scrollHeight - list.clientHeight) / 3);
      list.dispatchEvent(new Event("scroll"));
      return list.scrollTop;
    });
    assert.ok(top > 0, "the conversation is long enough to scroll");
    // The page saves its scroll position after a short pause; the host acknowledges once it is stored.
    await frame.locator(`.conversation[data-saved-scroll-top="${Math.round(top)}"]`).waitFor({ state: "attached" });
    const before = await chat.turns();
    await ui.page.reload();
    await ui.waitReady();
    const restored = await waitFor("the chat restored", () => chat.turns().catch(() => []), (t) => t.length === before.length, 60_000);
    assert.deepEqual(restored, before);
    const again = await chat.frame();
    await assertInert(again);
    const scrolled = await waitFor("the scroll position", () => again.evaluate(() => document.querySelector(".conversation")!.scrollTop), (n) => Math.abs(n - top) <= 2);
    assert.ok(Math.abs(scrolled - top) <= 2);
  });

  it("chats: New, switch, Rename and Delete from the toolbar", async () => {
    const frame = await chat.frame();
    const chats = frame.locator('select[aria-label="Chat"]');
    const titles = () => chats.locator("option").allInnerTexts();
    const current = () => chats.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.textContent ?? "");
    const first = await current();
    const count = (await titles()).length;
    await frame.locator('button[aria-label="New Chat"]').click();
    await waitFor("a new chat", titles, (t) => t.length === count + 1);
    assert.equal(await frame.locator(".turn").count(), 0);
    assert.ok(await frame.locator(".empty").isVisible(), "an empty chat says how to start");
    server.queue({ text: "Second chat answer." });
    await ask(frame, "A second chat");
    await answerEnded(frame);
    assert.equal(await current(), "A second chat");
    await chats.selectOption({ label: first });
    await waitFor("the first chat shown", () => frame.locator(".turn").count(), (n) => n > 2);
    await frame.locator('button[aria-label="Rename Chat"]').click();
    await ui.quickInputBox().waitFor();
    await ui.quickInputBox().fill("Markup tests");
    await ui.page.keyboard.press("Enter");
    await waitFor("the new title", current, (t) => t === "Markup tests");
    await frame.locator('button[aria-label="Delete Chat"]').click();
    await ui.page.locator(".monaco-dialog-box").getByRole("button", { name: "Delete" }).click();
    await waitFor("the chat deleted", titles, (t) => !t.includes("Markup tests"));
    assert.equal(await current(), "A second chat");
    assert.match(await frame.locator(".turn.assistant").last().innerText(), /Second chat answer\./);
  });
});
